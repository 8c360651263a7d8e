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
        if nb >= 3 && kb == (ka + 1) % nb {
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
        let nb = self.size.len();
        let sz = &self.size;
        let mut f = Factor {
            size: sz.clone(),
            start: self.start.clone(),
            s: Vec::with_capacity(nb),
            piv: Vec::with_capacity(nb),
            x: Vec::with_capacity(nb),
            y: Vec::with_capacity(nb),
            r: Vec::new(),
            r_piv: Vec::new(),
        };
        if nb == 1 {
            let m = sz[0];
            let mut s = self.d(0).to_vec();
            let mut piv = vec![0; m];
            lu(&mut s, m, &mut piv).then_some(())?;
            f.s.push(s);
            f.piv.push(piv);
            return Some(f);
        }
        let b = nb - 1;
        let mb = sz[b];
        // the border column of block 0 is the corner's transpose K(0, b) = U_bᵀ
        let mut g = transpose(self.u(b), mb, sz[0]);
        let mut s = self.d(0).to_vec();
        let mut r = self.d(b).to_vec();
        for k in 0..b {
            let m = sz[k];
            let mut piv = vec![0; m];
            lu(&mut s, m, &mut piv).then_some(())?;
            // Y_k = S_k⁻¹ G_k, R −= G_kᵀ Y_k
            let mut y = g.clone();
            lu_solve(&s, m, &piv, &mut y, mb);
            sub_atb(&mut r, &g, &y, m, mb, mb);
            if k + 1 < b {
                let m1 = sz[k + 1];
                let u = self.u(k);
                // X_k = S_k⁻¹ U_k, S_{k+1} = D_{k+1} − U_kᵀ X_k, G_{k+1} = F_{k+1} − U_kᵀ Y_k
                let mut x = u.to_vec();
                lu_solve(&s, m, &piv, &mut x, m1);
                let mut s1 = self.d(k + 1).to_vec();
                sub_atb(&mut s1, u, &x, m, m1, m1);
                let mut g1 = if k + 1 == b - 1 {
                    self.u(k + 1).to_vec()
                } else {
                    vec![0.0; m1 * mb]
                };
                sub_atb(&mut g1, u, &y, m, m1, mb);
                f.x.push(x);
                f.s.push(std::mem::replace(&mut s, s1));
                g = g1;
            } else {
                f.s.push(std::mem::take(&mut s));
            }
            f.piv.push(piv);
            f.y.push(y);
        }
        let mut r_piv = vec![0; mb];
        lu(&mut r, mb, &mut r_piv).then_some(())?;
        f.r = r;
        f.r_piv = r_piv;
        Some(f)
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

/// The block elimination of a [`BlockCyclic`] matrix.
#[derive(Debug, Clone)]
pub(crate) struct Factor {
    size: Vec<usize>,
    start: Vec<usize>,
    /// LU of the pivot blocks S_0 … S_{n−2} (of D_0 alone with one block).
    s: Vec<Vec<f64>>,
    piv: Vec<Vec<usize>>,
    /// X_k = S_k⁻¹ U_k, k ≤ n−3.
    x: Vec<Vec<f64>>,
    /// Y_k = S_k⁻¹ G_k (the border column), k ≤ n−2.
    y: Vec<Vec<f64>>,
    /// LU of the border's Schur complement.
    r: Vec<f64>,
    r_piv: Vec<usize>,
}

impl Factor {
    /// Solves K x = rhs in place.
    pub fn solve(&self, rhs: &mut [f64]) {
        let nb = self.size.len();
        if nb == 1 {
            lu_solve(&self.s[0], self.size[0], &self.piv[0], rhs, 1);
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
                sub_atv(&mut rest[..m1], &self.x[k], rk, m, m1);
            }
            sub_atv(border, &self.y[k], rk, m, mb);
            lu_solve(&self.s[k], m, &self.piv[k], rk, 1);
        }
        lu_solve(&self.r, mb, &self.r_piv, border, 1);
        // backward: x_k = w_k − X_k x_{k+1} − Y_k x_b
        for k in (0..b).rev() {
            let (m, s) = (self.size[k], self.start[k]);
            let (done, rest) = head.split_at_mut(s + m);
            let xk = &mut done[s..];
            if k + 1 < b {
                let m1 = self.size[k + 1];
                sub_av(xk, &self.x[k], &rest[..m1], m, m1);
            }
            sub_av(xk, &self.y[k], border, m, mb);
        }
    }
}

/// Σ a_i b_i.
#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The transpose of the `rows` × `cols` row-major matrix `a`.
fn transpose(a: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    let mut t = vec![0.0; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            t[c * rows + r] = a[r * cols + c];
        }
    }
    t
}

/// c −= aᵀ b, a: m × n, b: m × p, c: n × p (row-major).
fn sub_atb(c: &mut [f64], a: &[f64], b: &[f64], m: usize, n: usize, p: usize) {
    for k in 0..m {
        let brow = &b[k * p..(k + 1) * p];
        for i in 0..n {
            let aki = a[k * n + i];
            if aki != 0.0 {
                let crow = &mut c[i * p..(i + 1) * p];
                for (cv, bv) in crow.iter_mut().zip(brow) {
                    *cv -= aki * bv;
                }
            }
        }
    }
}

/// y −= aᵀ v, a: m × n.
fn sub_atv(y: &mut [f64], a: &[f64], v: &[f64], m: usize, n: usize) {
    for k in 0..m {
        let vk = v[k];
        if vk != 0.0 {
            for (yi, ai) in y.iter_mut().zip(&a[k * n..(k + 1) * n]) {
                *yi -= ai * vk;
            }
        }
    }
}

/// y −= a v, a: m × n.
fn sub_av(y: &mut [f64], a: &[f64], v: &[f64], m: usize, n: usize) {
    for (i, yi) in y.iter_mut().enumerate().take(m) {
        *yi -= dot(&a[i * n..(i + 1) * n], v);
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
        let inv = 1.0 / a[k * n + k];
        for r in k + 1..n {
            let l = a[r * n + k] * inv;
            a[r * n + k] = l;
            if l != 0.0 {
                for c in k + 1..n {
                    a[r * n + c] -= l * a[k * n + c];
                }
            }
        }
    }
    true
}

/// Solves A X = B in place for the LU of `lu` (n × n) and B of `p` columns (n × p row-major).
fn lu_solve(a: &[f64], n: usize, piv: &[usize], b: &mut [f64], p: usize) {
    for k in 0..n {
        if piv[k] != k {
            for c in 0..p {
                b.swap(k * p + c, piv[k] * p + c);
            }
        }
    }
    for r in 1..n {
        for k in 0..r {
            let l = a[r * n + k];
            if l != 0.0 {
                for c in 0..p {
                    b[r * p + c] -= l * b[k * p + c];
                }
            }
        }
    }
    for r in (0..n).rev() {
        for k in r + 1..n {
            let u = a[r * n + k];
            if u != 0.0 {
                for c in 0..p {
                    b[r * p + c] -= u * b[k * p + c];
                }
            }
        }
        let d = a[r * n + r];
        for c in 0..p {
            b[r * p + c] /= d;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic pseudo-random sequence in [−1, 1).
    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

    /// Quasi-definite block cyclic matrices of uneven block sizes (the first unknowns of a
    /// block positive, the last negative, as in a regularised KKT matrix): the block solve
    /// agrees with a dense solve of the same matrix.
    #[test]
    fn block_cyclic_solve_matches_dense() {
        let mut seed = 7;
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
                            -3.0 - lcg(&mut seed).abs()
                        } else {
                            3.0 + lcg(&mut seed).abs()
                        }
                    } else if neg[a] && neg[b] {
                        0.0
                    } else {
                        lcg(&mut seed)
                    };
                    k.data[s] += v;
                    if let Some(m) = mirror {
                        k.data[m] += v;
                    }
                    dense[a][b] = v;
                    dense[b][a] = v;
                }
            }
            let rhs: Vec<f64> = (0..n).map(|_| lcg(&mut seed)).collect();
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
