//! Symmetric block cyclic tridiagonal systems: the KKT matrix of a racing-line QP with its
//! unknowns grouped by knot. Block k holds the unknowns of knot k; it couples only with
//! blocks k − 1 and k + 1, and the last block with the first (the closed spline's corner).
//!
//! The factorisation is block Gaussian elimination down the open chain 0 … n−2, with the
//! last block as a border: each step eliminates one block from its successor and from the
//! border column, so the corner costs one extra block column per step and the whole
//! factorisation is O(n·m³) for n blocks of size m. The pivot blocks are factored by dense LU
//! with partial pivoting; the matrices factored here are quasi-definite (regularised KKT
//! matrices), whose Schur complements stay non-singular without pivoting across blocks.
//! With one block the matrix is dense (a problem without knot structure).

// Dense kernels over row-major blocks read best with explicit indices.
#![allow(clippy::needless_range_loop)]

use super::uniform::Uniform;

/// `$body` with `$f` bound to the fixed-size factor of each variant.
macro_rules! each_uniform {
    ($factor:expr, $f:ident => $body:expr, $general:ident => $gbody:expr) => {
        match $factor {
            Factor::General($general) => $gbody,
            Factor::U1($f) => $body,
            Factor::U2($f) => $body,
            Factor::U3($f) => $body,
            Factor::U4($f) => $body,
            Factor::U5($f) => $body,
            Factor::U6($f) => $body,
            Factor::U7($f) => $body,
            Factor::U8($f) => $body,
        }
    };
}

/// A symmetric matrix stored as diagonal blocks D_k and the blocks U_k = K(k, k+1)
/// (U_{n−1} = K(n−1, 0), the corner), each dense and row-major.
#[derive(Debug, Clone)]
pub(crate) struct BlockCyclic {
    /// Unknowns per block.
    size: Vec<usize>,
    /// First unknown of each block (and the total at the end).
    start: Vec<usize>,
    /// Offset of D_k in `data`.
    d_off: Vec<usize>,
    /// Offset of U_k in `data` (unused with one block).
    u_off: Vec<usize>,
    /// Block of each unknown.
    block_of: Vec<usize>,
    /// The entries.
    pub data: Vec<f64>,
}

impl BlockCyclic {
    /// An all-zero matrix with blocks of `size` unknowns (one block, or at least three).
    pub fn new(size: Vec<usize>) -> Self {
        let nb = size.len();
        debug_assert!(nb == 1 || nb >= 3);
        let mut start = Vec::with_capacity(nb + 1);
        let mut block_of = Vec::new();
        let mut acc = 0;
        for (k, &m) in size.iter().enumerate() {
            start.push(acc);
            acc += m;
            block_of.extend(std::iter::repeat_n(k, m));
        }
        start.push(acc);
        let mut off = 0;
        let d_off: Vec<usize> = size
            .iter()
            .map(|&m| {
                let o = off;
                off += m * m;
                o
            })
            .collect();
        let u_off: Vec<usize> = if nb >= 3 {
            (0..nb)
                .map(|k| {
                    let o = off;
                    off += size[k] * size[(k + 1) % nb];
                    o
                })
                .collect()
        } else {
            Vec::new()
        };
        BlockCyclic {
            size,
            start,
            d_off,
            u_off,
            block_of,
            data: vec![0.0; off],
        }
    }

    /// Number of unknowns.
    pub fn dim(&self) -> usize {
        self.block_of.len()
    }

    /// Index in `data` of entry (a, b) when it lies in a stored block (D, or U above the
    /// diagonal blocks); entries below (b's block before a's) are the transposes of stored
    /// ones and give `None`, as do entries outside the band.
    fn stored(&self, a: usize, b: usize) -> Option<usize> {
        let (ka, kb) = (self.block_of[a], self.block_of[b]);
        let (la, lb) = (a - self.start[ka], b - self.start[kb]);
        if ka == kb {
            return Some(self.d_off[ka] + la * self.size[ka] + lb);
        }
        let nb = self.size.len();
        // kb == (ka + 1) mod nb, without the division (a KKT's layout asks this per entry)
        let next = if ka + 1 == nb { 0 } else { ka + 1 };
        if nb >= 3 && kb == next {
            return Some(self.u_off[ka] + la * self.size[kb] + lb);
        }
        None
    }

    /// The places of entry (a, b) and of its mirror (b, a) in `data` (the second `None` on the
    /// diagonal block's own diagonal or where the mirror is the same stored entry); `None` when
    /// (a, b) lies outside the band.
    pub fn slots(&self, a: usize, b: usize) -> Option<(usize, Option<usize>)> {
        let ab = self.stored(a, b);
        let ba = self.stored(b, a);
        match (ab, ba) {
            (Some(x), Some(y)) if x == y => Some((x, None)),
            (Some(x), Some(y)) => Some((x, Some(y))),
            (Some(x), None) | (None, Some(x)) => Some((x, None)),
            (None, None) => None,
        }
    }

    /// y = K x.
    pub fn mul(&self, x: &[f64], y: &mut [f64]) {
        let nb = self.size.len();
        y.iter_mut().for_each(|v| *v = 0.0);
        for k in 0..nb {
            let (m, s) = (self.size[k], self.start[k]);
            let d = &self.data[self.d_off[k]..self.d_off[k] + m * m];
            for r in 0..m {
                let row = &d[r * m..(r + 1) * m];
                y[s + r] += dot(row, &x[s..s + m]);
            }
            if nb >= 3 {
                let k1 = (k + 1) % nb;
                let (m1, s1) = (self.size[k1], self.start[k1]);
                let u = &self.data[self.u_off[k]..self.u_off[k] + m * m1];
                for r in 0..m {
                    let row = &u[r * m1..(r + 1) * m1];
                    y[s + r] += dot(row, &x[s1..s1 + m1]);
                    let xr = x[s + r];
                    for (c, &v) in row.iter().enumerate() {
                        y[s1 + c] += v * xr;
                    }
                }
            }
        }
    }

    /// The factorisation, or `None` on a singular pivot block.
    pub fn factor(&self) -> Option<Factor> {
        let mut f = Factor::for_matrix(self);
        self.factor_into(&mut f).then_some(f)
    }

    /// Factors into `f` (made by [`Factor::for_matrix`] for a matrix of this shape), reusing
    /// its storage; false on a singular pivot block.
    pub fn factor_into(&self, f: &mut Factor) -> bool {
        each_uniform!(f, u => u.factor(|k| self.d(k), |k| self.u(k)), g => self.factor_general(g))
    }

    /// [`BlockCyclic::factor_into`] for blocks of any sizes.
    fn factor_general(&self, f: &mut General) -> bool {
        let nb = self.size.len();
        let sz = &self.size;
        if nb == 1 {
            let m = sz[0];
            f.s.copy_from_slice(self.d(0));
            return lu(&mut f.s, m, &mut f.piv);
        }
        let b = nb - 1;
        let mb = sz[b];
        f.r.copy_from_slice(self.d(b));
        // the running pivot block S_k and border column G_k, then per step
        // Y_k = S_k⁻¹ G_k, R −= G_kᵀ Y_k, X_k = S_k⁻¹ U_k, S_{k+1} = D_{k+1} − U_kᵀ X_k and
        // G_{k+1} = F_{k+1} − U_kᵀ Y_k (F the corner's column: U_{b−1} at k + 1 = b − 1, else 0);
        // the border column of block 0 is the corner's transpose K(0, b) = U_bᵀ
        let g = &mut f.g;
        g.clear();
        g.resize(sz[0] * mb, 0.0);
        transpose_into(self.u(b), mb, sz[0], g);
        for k in 0..b {
            let m = sz[k];
            let (so, po) = (f.s_off[k], self.start[k]);
            if k == 0 {
                f.s[so..so + m * m].copy_from_slice(self.d(0));
            }
            let (s_done, s_rest) = f.s.split_at_mut(so + m * m);
            let s = &mut s_done[so..];
            if !lu(s, m, &mut f.piv[po..po + m]) {
                return false;
            }
            let piv = &f.piv[po..po + m];
            let y = &mut f.y[f.y_off[k]..f.y_off[k] + m * mb];
            y.copy_from_slice(g);
            lu_solve(s, m, piv, y, mb);
            sub_atb(&mut f.r, g, y, m, mb, mb);
            if k + 1 < b {
                let m1 = sz[k + 1];
                let u = self.u(k);
                let x = &mut f.x[f.x_off[k]..f.x_off[k] + m * m1];
                x.copy_from_slice(u);
                lu_solve(s, m, piv, x, m1);
                let s1 = &mut s_rest[..m1 * m1];
                s1.copy_from_slice(self.d(k + 1));
                sub_atb(s1, u, x, m, m1, m1);
                g.clear();
                if k + 1 == b - 1 {
                    g.extend_from_slice(self.u(k + 1));
                } else {
                    g.resize(m1 * mb, 0.0);
                }
                sub_atb(g, u, y, m, m1, mb);
            }
        }
        lu(&mut f.r, mb, &mut f.r_piv)
    }

    fn d(&self, k: usize) -> &[f64] {
        let m = self.size[k];
        &self.data[self.d_off[k]..self.d_off[k] + m * m]
    }

    fn u(&self, k: usize) -> &[f64] {
        let nb = self.size.len();
        let len = self.size[k] * self.size[(k + 1) % nb];
        &self.data[self.u_off[k]..self.u_off[k] + len]
    }
}

/// The block elimination of a [`BlockCyclic`] matrix: fixed-size kernels where every block
/// has one small size ([`Uniform`]), else the general one; its storage is reused by a new
/// factorisation of a matrix of the same shape.
#[derive(Debug, Clone)]
pub(crate) enum Factor {
    General(General),
    U1(Uniform<1>),
    U2(Uniform<2>),
    U3(Uniform<3>),
    U4(Uniform<4>),
    U5(Uniform<5>),
    U6(Uniform<6>),
    U7(Uniform<7>),
    U8(Uniform<8>),
}

impl Factor {
    /// Storage for the factorisation of matrices shaped as `mat`.
    pub fn for_matrix(mat: &BlockCyclic) -> Factor {
        let nb = mat.size.len();
        let m = mat.size[0];
        if nb < 3 || mat.size.iter().any(|&s| s != m) {
            return Factor::General(General::for_matrix(mat));
        }
        match m {
            1 => Factor::U1(Uniform::new(nb)),
            2 => Factor::U2(Uniform::new(nb)),
            3 => Factor::U3(Uniform::new(nb)),
            4 => Factor::U4(Uniform::new(nb)),
            5 => Factor::U5(Uniform::new(nb)),
            6 => Factor::U6(Uniform::new(nb)),
            7 => Factor::U7(Uniform::new(nb)),
            8 => Factor::U8(Uniform::new(nb)),
            _ => Factor::General(General::for_matrix(mat)),
        }
    }

    /// Solves K x = rhs in place.
    pub fn solve(&self, rhs: &mut [f64]) {
        each_uniform!(self, f => f.solve(rhs), g => g.solve(rhs))
    }
}

/// The general block elimination (blocks of any sizes, or one dense block), in flat storage.
#[derive(Debug, Clone)]
pub(crate) struct General {
    size: Vec<usize>,
    start: Vec<usize>,
    /// LU of the pivot blocks S_0 … S_{n−2} (of D_0 alone with one block), at `s_off`.
    s: Vec<f64>,
    s_off: Vec<usize>,
    /// Row exchanges of each pivot block's LU, at the block's first unknown.
    piv: Vec<usize>,
    /// X_k = S_k⁻¹ U_k, k ≤ n−3, at `x_off`.
    x: Vec<f64>,
    x_off: Vec<usize>,
    /// Y_k = S_k⁻¹ G_k (the border column), k ≤ n−2, at `y_off`.
    y: Vec<f64>,
    y_off: Vec<usize>,
    /// LU of the border's Schur complement.
    r: Vec<f64>,
    r_piv: Vec<usize>,
    /// The running border column of the elimination.
    g: Vec<f64>,
}

impl General {
    /// Storage for the factorisation of matrices shaped as `mat`.
    fn for_matrix(mat: &BlockCyclic) -> General {
        let nb = mat.size.len();
        let sz = &mat.size;
        let mut f = General {
            size: sz.clone(),
            start: mat.start.clone(),
            s: Vec::new(),
            s_off: Vec::with_capacity(nb),
            piv: vec![0; mat.dim()],
            x: Vec::new(),
            x_off: Vec::with_capacity(nb),
            y: Vec::new(),
            y_off: Vec::with_capacity(nb),
            r: Vec::new(),
            r_piv: Vec::new(),
            g: Vec::new(),
        };
        if nb == 1 {
            f.s = vec![0.0; sz[0] * sz[0]];
            f.s_off.push(0);
            return f;
        }
        let b = nb - 1;
        let mb = sz[b];
        let (mut so, mut xo, mut yo) = (0, 0, 0);
        for k in 0..b {
            f.s_off.push(so);
            so += sz[k] * sz[k];
            f.x_off.push(xo);
            if k + 1 < b {
                xo += sz[k] * sz[k + 1];
            }
            f.y_off.push(yo);
            yo += sz[k] * mb;
        }
        f.s = vec![0.0; so];
        f.x = vec![0.0; xo];
        f.y = vec![0.0; yo];
        f.r = vec![0.0; mb * mb];
        f.r_piv = vec![0; mb];
        f
    }

    fn s(&self, k: usize) -> &[f64] {
        let m = self.size[k];
        &self.s[self.s_off[k]..self.s_off[k] + m * m]
    }

    fn piv(&self, k: usize) -> &[usize] {
        &self.piv[self.start[k]..self.start[k] + self.size[k]]
    }

    fn x(&self, k: usize) -> &[f64] {
        let len = self.size[k] * self.size[k + 1];
        &self.x[self.x_off[k]..self.x_off[k] + len]
    }

    fn y(&self, k: usize) -> &[f64] {
        let len = self.size[k] * self.size[self.size.len() - 1];
        &self.y[self.y_off[k]..self.y_off[k] + len]
    }

    /// Solves K x = rhs in place.
    fn solve(&self, rhs: &mut [f64]) {
        let nb = self.size.len();
        if nb == 1 {
            lu_solve(self.s(0), self.size[0], self.piv(0), rhs, 1);
            return;
        }
        let b = nb - 1;
        let (mb, sb) = (self.size[b], self.start[b]);
        let (head, border) = rhs.split_at_mut(sb);
        // forward: r̂_{k+1} = r_{k+1} − U_kᵀ S_k⁻¹ r̂_k = r_{k+1} − X_kᵀ r̂_k and
        // r_b −= G_kᵀ S_k⁻¹ r̂_k = Y_kᵀ r̂_k (S_k is symmetric), then w_k = S_k⁻¹ r̂_k
        for k in 0..b {
            let (m, s) = (self.size[k], self.start[k]);
            let (done, rest) = head.split_at_mut(s + m);
            let rk = &mut done[s..];
            if k + 1 < b {
                let m1 = self.size[k + 1];
                sub_atv(&mut rest[..m1], self.x(k), rk, m, m1);
            }
            sub_atv(border, self.y(k), rk, m, mb);
            lu_solve(self.s(k), m, self.piv(k), rk, 1);
        }
        lu_solve(&self.r, mb, &self.r_piv, border, 1);
        // backward: x_k = w_k − X_k x_{k+1} − Y_k x_b
        for k in (0..b).rev() {
            let (m, s) = (self.size[k], self.start[k]);
            let (done, rest) = head.split_at_mut(s + m);
            let xk = &mut done[s..];
            if k + 1 < b {
                let m1 = self.size[k + 1];
                sub_av(xk, self.x(k), &rest[..m1], m, m1);
            }
            sub_av(xk, self.y(k), border, m, mb);
        }
    }
}

/// Σ a_i b_i.
#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The transpose of the `rows` × `cols` row-major matrix `a`, into `t`.
fn transpose_into(a: &[f64], rows: usize, cols: usize, t: &mut [f64]) {
    for r in 0..rows {
        for c in 0..cols {
            t[c * rows + r] = a[r * cols + c];
        }
    }
}

/// c −= aᵀ b, a: m × n, b: m × p, c: n × p (row-major).
fn sub_atb(c: &mut [f64], a: &[f64], b: &[f64], m: usize, n: usize, p: usize) {
    for (arow, brow) in a.chunks_exact(n).zip(b.chunks_exact(p)).take(m) {
        for (&aki, crow) in arow.iter().zip(c.chunks_exact_mut(p)) {
            if aki != 0.0 {
                for (cv, bv) in crow.iter_mut().zip(brow) {
                    *cv -= aki * bv;
                }
            }
        }
    }
}

/// y −= aᵀ v, a: m × n.
fn sub_atv(y: &mut [f64], a: &[f64], v: &[f64], m: usize, n: usize) {
    for (arow, &vk) in a.chunks_exact(n).zip(v).take(m) {
        if vk != 0.0 {
            for (yi, ai) in y.iter_mut().zip(arow) {
                *yi -= ai * vk;
            }
        }
    }
}

/// y −= a v, a: m × n.
fn sub_av(y: &mut [f64], a: &[f64], v: &[f64], m: usize, n: usize) {
    for (yi, arow) in y.iter_mut().zip(a.chunks_exact(n)).take(m) {
        *yi -= dot(arow, v);
    }
}

/// In-place LU with partial pivoting of the n × n row-major `a`; false on a zero or
/// non-finite pivot.
fn lu(a: &mut [f64], n: usize, piv: &mut [usize]) -> bool {
    for k in 0..n {
        let mut p = k;
        let mut best = a[k * n + k].abs();
        for r in k + 1..n {
            let v = a[r * n + k].abs();
            if v > best {
                best = v;
                p = r;
            }
        }
        piv[k] = p;
        if best == 0.0 || !best.is_finite() {
            return false;
        }
        if p != k {
            for c in 0..n {
                a.swap(k * n + c, p * n + c);
            }
        }
        let (top, below) = a.split_at_mut((k + 1) * n);
        let pivot_row = &top[k * n..];
        let inv = 1.0 / pivot_row[k];
        for row in below.chunks_exact_mut(n) {
            let l = row[k] * inv;
            row[k] = l;
            if l != 0.0 {
                for (x, u) in row[k + 1..].iter_mut().zip(&pivot_row[k + 1..]) {
                    *x -= l * u;
                }
            }
        }
    }
    true
}

/// Solves A X = B in place for the LU of `lu` (n × n) and B of `p` columns (n × p row-major).
fn lu_solve(a: &[f64], n: usize, piv: &[usize], b: &mut [f64], p: usize) {
    if p == 1 {
        lu_solve_vec(a, n, piv, b);
        return;
    }
    for (k, &pk) in piv.iter().enumerate().take(n) {
        if pk != k {
            for c in 0..p {
                b.swap(k * p + c, pk * p + c);
            }
        }
    }
    for r in 1..n {
        let (done, rest) = b.split_at_mut(r * p);
        let br = &mut rest[..p];
        for (&l, bk) in a[r * n..r * n + r].iter().zip(done.chunks_exact(p)) {
            if l != 0.0 {
                for (x, y) in br.iter_mut().zip(bk) {
                    *x -= l * y;
                }
            }
        }
    }
    for r in (0..n).rev() {
        let (head, tail) = b.split_at_mut((r + 1) * p);
        let br = &mut head[r * p..];
        let arow = &a[r * n..(r + 1) * n];
        for (&u, bk) in arow[r + 1..].iter().zip(tail.chunks_exact(p)) {
            if u != 0.0 {
                for (x, y) in br.iter_mut().zip(bk) {
                    *x -= u * y;
                }
            }
        }
        let d = arow[r];
        for x in br.iter_mut() {
            *x /= d;
        }
    }
}

/// [`lu_solve`] for one right-hand side.
fn lu_solve_vec(a: &[f64], n: usize, piv: &[usize], b: &mut [f64]) {
    let b = &mut b[..n];
    for (k, &pk) in piv.iter().enumerate().take(n) {
        if pk != k {
            b.swap(k, pk);
        }
    }
    for r in 1..n {
        let (done, rest) = b.split_at_mut(r);
        rest[0] -= dot(&a[r * n..r * n + r], done);
    }
    for r in (0..n).rev() {
        let (head, tail) = b.split_at_mut(r + 1);
        let arow = &a[r * n..(r + 1) * n];
        head[r] = (head[r] - dot(&arow[r + 1..], tail)) / arow[r];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Lcg;

    /// Quasi-definite block cyclic matrices of uneven block sizes (the first unknowns of a
    /// block positive, the last negative, as in a regularised KKT matrix): the block solve
    /// agrees with a dense solve of the same matrix.
    #[test]
    fn block_cyclic_solve_matches_dense() {
        let mut rng = Lcg::new(7);
        for sizes in [
            vec![3],
            vec![1, 1, 1],
            vec![2, 3, 1, 4],
            vec![5; 9],
            vec![2, 1, 3, 2, 1, 3, 2, 4, 1, 2],
        ] {
            let mut k = BlockCyclic::new(sizes.clone());
            let n = k.dim();
            let mut dense = vec![vec![0.0; n]; n];
            let neg: Vec<bool> = sizes
                .iter()
                .flat_map(|&m| (0..m).map(move |l| m > 1 && l == m - 1))
                .collect();
            for a in 0..n {
                for b in a..n {
                    let Some((s, mirror)) = k.slots(a, b) else {
                        continue;
                    };
                    let v = if a == b {
                        if neg[a] {
                            -3.0 - rng.unit().abs()
                        } else {
                            3.0 + rng.unit().abs()
                        }
                    } else if neg[a] && neg[b] {
                        0.0
                    } else {
                        rng.unit()
                    };
                    k.data[s] += v;
                    if let Some(m) = mirror {
                        k.data[m] += v;
                    }
                    dense[a][b] = v;
                    dense[b][a] = v;
                }
            }
            let rhs: Vec<f64> = (0..n).map(|_| rng.unit()).collect();
            let mut x = rhs.clone();
            k.factor().expect("non-singular").solve(&mut x);
            // the dense Gaussian elimination of the banded tests, the naive twin of the block solve
            let reference = crate::banded::tests::dense_solve(dense.clone(), rhs.clone())
                .expect("a nonsingular test system");
            for (a, b) in x.iter().zip(&reference) {
                assert!((a - b).abs() < 1e-10, "{sizes:?}: {a} vs {b}");
            }
            // and the product is the dense one
            let mut y = vec![0.0; n];
            k.mul(&x, &mut y);
            for (r, yr) in y.iter().enumerate() {
                let d: f64 = (0..n).map(|c| dense[r][c] * x[c]).sum();
                assert!((yr - d).abs() < 1e-12, "{sizes:?}: row {r}");
            }
        }
    }
}
