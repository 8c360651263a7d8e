//! The block elimination of [`super::cyclic`] for the common case of blocks of one small
//! size M (every knot of a racing-line QP carries the same unknowns): the blocks are
//! fixed-size arrays, so each kernel is a fully unrolled M × M loop nest. The steps and their
//! order are those of the general elimination.

// Fixed-size kernels over row-major blocks read best with explicit indices.
#![allow(clippy::needless_range_loop)]

/// An M × M block, row-major.
pub(super) type Block<const M: usize> = [[f64; M]; M];

/// The block elimination of a block cyclic matrix of blocks of size M.
#[derive(Debug, Clone)]
pub(super) struct Uniform<const M: usize> {
    /// LU of the pivot blocks S_0 … S_{n−2} and their row exchanges.
    s: Vec<Block<M>>,
    piv: Vec<[usize; M]>,
    /// X_k = S_k⁻¹ U_k, k ≤ n−3.
    x: Vec<Block<M>>,
    /// Y_k = S_k⁻¹ G_k (the border column), k ≤ n−2.
    y: Vec<Block<M>>,
    /// LU of the border's Schur complement.
    r: Block<M>,
    r_piv: [usize; M],
}

/// The block at the start of `data` (M × M row-major), in place.
fn view<const M: usize>(data: &[f64]) -> &Block<M> {
    let (rows, _) = data[..M * M].as_chunks::<M>();
    rows.try_into().expect("a block holds M rows")
}

/// `dst` = `src`, row by row (a whole block moved at once is a call to memcpy).
#[inline(always)]
fn copy<const M: usize>(dst: &mut Block<M>, src: &Block<M>) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = *s;
    }
}

fn transpose<const M: usize>(a: &Block<M>) -> Block<M> {
    let mut t = [[0.0; M]; M];
    for i in 0..M {
        for j in 0..M {
            t[j][i] = a[i][j];
        }
    }
    t
}

/// c −= aᵀ b.
fn sub_atb<const M: usize>(c: &mut Block<M>, a: &Block<M>, b: &Block<M>) {
    for k in 0..M {
        for i in 0..M {
            let aki = a[k][i];
            for j in 0..M {
                c[i][j] -= aki * b[k][j];
            }
        }
    }
}

/// c −= aᵀ b for a mostly zero `a` (a coupling block): the rows of aᵀ b that a zero entry
/// of `a` would contribute (c −= 0·b, which leaves c as it is for finite b) are skipped.
fn sub_sparse_atb<const M: usize>(c: &mut Block<M>, a: &Block<M>, b: &Block<M>) {
    for k in 0..M {
        for i in 0..M {
            let aki = a[k][i];
            if aki == 0.0 {
                continue;
            }
            for j in 0..M {
                c[i][j] -= aki * b[k][j];
            }
        }
    }
}

/// out −= Aᵀ v.
#[inline]
fn sub_atv<const M: usize>(out: &mut [f64; M], a: &Block<M>, v: &[f64; M]) {
    for i in 0..M {
        for j in 0..M {
            out[j] -= a[i][j] * v[i];
        }
    }
}

/// out −= A v.
#[inline]
fn sub_av<const M: usize>(out: &mut [f64; M], a: &Block<M>, v: &[f64; M]) {
    for i in 0..M {
        for j in 0..M {
            out[i] -= a[i][j] * v[j];
        }
    }
}

/// In-place LU with partial pivoting; false on a zero or non-finite pivot.
fn lu<const M: usize>(a: &mut Block<M>, piv: &mut [usize; M]) -> bool {
    for k in 0..M {
        let mut p = k;
        let mut best = a[k][k].abs();
        for r in k + 1..M {
            if a[r][k].abs() > best {
                best = a[r][k].abs();
                p = r;
            }
        }
        piv[k] = p;
        if best == 0.0 || !best.is_finite() {
            return false;
        }
        a.swap(k, p);
        let inv = 1.0 / a[k][k];
        for r in k + 1..M {
            let l = a[r][k] * inv;
            a[r][k] = l;
            for c in k + 1..M {
                a[r][c] -= l * a[k][c];
            }
        }
    }
    true
}

/// Solves A X = B in place for the LU of A.
fn lu_solve_block<const M: usize>(a: &Block<M>, piv: &[usize; M], b: &mut Block<M>) {
    for k in 0..M {
        b.swap(k, piv[k]);
    }
    for r in 1..M {
        for k in 0..r {
            let l = a[r][k];
            for c in 0..M {
                b[r][c] -= l * b[k][c];
            }
        }
    }
    for r in (0..M).rev() {
        for k in r + 1..M {
            let u = a[r][k];
            for c in 0..M {
                b[r][c] -= u * b[k][c];
            }
        }
        let d = a[r][r];
        for c in 0..M {
            b[r][c] /= d;
        }
    }
}

/// Solves A x = b in place for the LU of A.
fn lu_solve_vec<const M: usize>(a: &Block<M>, piv: &[usize; M], b: &mut [f64; M]) {
    for k in 0..M {
        b.swap(k, piv[k]);
    }
    for r in 1..M {
        let mut v = b[r];
        for k in 0..r {
            v -= a[r][k] * b[k];
        }
        b[r] = v;
    }
    for r in (0..M).rev() {
        let mut v = b[r];
        for k in r + 1..M {
            v -= a[r][k] * b[k];
        }
        b[r] = v / a[r][r];
    }
}

impl<const M: usize> Uniform<M> {
    /// Storage for `nb` ≥ 3 blocks.
    pub(super) fn new(nb: usize) -> Self {
        let zero = [[0.0; M]; M];
        Uniform {
            s: vec![zero; nb - 1],
            piv: vec![[0; M]; nb - 1],
            x: vec![zero; nb.saturating_sub(2)],
            y: vec![zero; nb - 1],
            r: zero,
            r_piv: [0; M],
        }
    }

    /// Factors the matrix of diagonal blocks `d(k)` and couplings `u(k)` = K(k, k+1)
    /// (`u(nb − 1)` the corner K(nb − 1, 0)); false on a singular pivot block.
    pub(super) fn factor<'a>(
        &mut self,
        d: impl Fn(usize) -> &'a [f64],
        u: impl Fn(usize) -> &'a [f64],
    ) -> bool {
        let b = self.s.len();
        let mut r = *view::<M>(d(b));
        // the border column of block 0 is the corner's transpose K(0, b) = U_bᵀ
        let mut g = transpose(view::<M>(u(b)));
        // each step works in the storage it fills (S_k, X_k, Y_k) and reads the matrix in
        // place: a block moved whole is copied by a call to memcpy (seven per step when each
        // step built its blocks as locals and moved them into place, ≈ 3 % of a cold solve of
        // f's IQP QP)
        copy(&mut self.s[0], view(d(0)));
        for k in 0..b {
            let (done, next) = self.s.split_at_mut(k + 1);
            let s = &mut done[k];
            let piv = &mut self.piv[k];
            if !lu(s, piv) {
                return false;
            }
            // Y_k = S_k⁻¹ G_k, R −= G_kᵀ Y_k
            let y = &mut self.y[k];
            copy(y, &g);
            lu_solve_block(s, piv, y);
            sub_atb(&mut r, &g, y);
            if k + 1 < b {
                // X_k = S_k⁻¹ U_k, S_{k+1} = D_{k+1} − U_kᵀ X_k, G_{k+1} = F_{k+1} − U_kᵀ Y_k
                let uk = view::<M>(u(k));
                let x = &mut self.x[k];
                copy(x, uk);
                lu_solve_block(s, piv, x);
                let s1 = &mut next[0];
                copy(s1, view(d(k + 1)));
                sub_sparse_atb(s1, uk, x);
                if k + 1 == b - 1 {
                    copy(&mut g, view(u(k + 1)));
                } else {
                    g.iter_mut().for_each(|row| *row = [0.0; M]);
                }
                sub_sparse_atb(&mut g, uk, y);
            }
        }
        let ok = lu(&mut r, &mut self.r_piv);
        self.r = r;
        ok
    }

    /// Solves K x = rhs in place.
    pub(super) fn solve(&self, rhs: &mut [f64]) {
        let b = self.s.len();
        let (chunks, _) = rhs.as_chunks_mut::<M>();
        let (head, tail) = chunks.split_at_mut(b);
        let border = &mut tail[0];
        // forward: r̂_{k+1} = r_{k+1} − X_kᵀ r̂_k, r_b −= Y_kᵀ r̂_k, then w_k = S_k⁻¹ r̂_k
        for k in 0..b {
            let rk = head[k];
            if k + 1 < b {
                sub_atv(&mut head[k + 1], &self.x[k], &rk);
            }
            sub_atv(border, &self.y[k], &rk);
            lu_solve_vec(&self.s[k], &self.piv[k], &mut head[k]);
        }
        lu_solve_vec(&self.r, &self.r_piv, border);
        // backward: x_k = w_k − X_k x_{k+1} − Y_k x_b
        let xb = *border;
        for k in (0..b).rev() {
            let mut v = head[k];
            if k + 1 < b {
                sub_av(&mut v, &self.x[k], &head[k + 1]);
            }
            sub_av(&mut v, &self.y[k], &xb);
            head[k] = v;
        }
    }
}
