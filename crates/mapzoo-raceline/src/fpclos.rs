//! Periodic parametric smoothing spline, a Rust port of Dierckx's FITPACK
//! `clocur`/`fpclos` (with `fpbacp`, `fpdisc`, `fpknot`, `fprati`, `fpgivs`,
//! `fprota`) for iopt = 0, s > 0, unit weights, as SciPy's
//! `splprep(per=1)` runs it (tol = 0.001, maxit = 20). The `splinefit` crate's
//! translation of `fpclos` aborts on real tracks, so the routine is ported here.
//!
//! Reference: P. Dierckx, "Algorithms for smoothing data with periodic and
//! parametric splines", Computer Graphics and Image Processing 20 (1982).
//! Arrays keep FITPACK's 1-based indices (slot 0 unused) so the port can be
//! read against the original line by line. The hot sweeps take fixed-width rows and
//! windows (no index arithmetic, fewer checks) and clear only the rows in use; the
//! operations and their order are FITPACK's, and the tests hold the result bit for bit
//! to the port as first written (`naive`).

// The port keeps FITPACK's explicit index arithmetic (1-based, counters that
// run beside the loop variable) on purpose, so it can be checked against the
// Fortran; iterator rewrites would hide that correspondence.
#![allow(clippy::needless_range_loop, clippy::explicit_counter_loop)]

#[cfg(test)]
mod naive;

/// The spline degree: cubic.
const K: usize = 3;

/// A dense matrix with 1-based (row, column) indices, stored as rows of `W` values
/// (column 0 unused): a fixed row width lets the hot loops index without arithmetic.
#[cfg_attr(test, derive(Clone))]
struct Mat<const W: usize> {
    rows: Vec<[f64; W]>,
}

impl<const W: usize> Mat<W> {
    /// Rows 0..=rows, all zero.
    fn new(rows: usize) -> Self {
        Mat {
            rows: vec![[0.0; W]; rows + 1],
        }
    }
    #[inline]
    fn at(&self, i: usize, j: usize) -> f64 {
        self.rows[i][j]
    }
    #[inline]
    fn set(&mut self, i: usize, j: usize, v: f64) {
        self.rows[i][j] = v;
    }
    #[inline]
    fn get_mut(&mut self, i: usize, j: usize) -> &mut f64 {
        &mut self.rows[i][j]
    }
    /// Sets rows 0..=last to zero.
    fn clear_to(&mut self, last: usize) {
        let last = last.min(self.rows.len() - 1);
        self.rows[..=last].iter_mut().for_each(|r| *r = [0.0; W]);
    }
}

/// FITPACK `fpgivs`: parameters of a Givens rotation; `ww` becomes the new diagonal.
#[inline]
fn fpgivs(piv: f64, ww: &mut f64) -> (f64, f64) {
    let store = piv.abs();
    let dd = if store >= *ww {
        store * (1.0 + (*ww / piv) * (*ww / piv)).sqrt()
    } else {
        *ww * (1.0 + (piv / *ww) * (piv / *ww)).sqrt()
    };
    let cos = *ww / dd;
    let sin = piv / dd;
    *ww = dd;
    (cos, sin)
}

/// FITPACK `fprota`: apply a Givens rotation to (a, b).
#[inline]
fn fprota(cos: f64, sin: f64, a: &mut f64, b: &mut f64) {
    let stora = *a;
    let storb = *b;
    *a = cos * stora - sin * storb;
    *b = cos * storb + sin * stora;
}

/// FITPACK `fprati`: root of the rational interpolant through three (p, f) points;
/// updates (p1, f1) or (p3, f3) so that f1 > 0 > f3.
fn fprati(p1: &mut f64, f1: &mut f64, p2: f64, f2: f64, p3: &mut f64, f3: &mut f64) -> f64 {
    let p = if *p3 > 0.0 {
        let h1 = *f1 * (f2 - *f3);
        let h2 = f2 * (*f3 - *f1);
        let h3 = *f3 * (*f1 - f2);
        -(*p1 * p2 * h3 + p2 * *p3 * h1 + *p3 * *p1 * h2) / (*p1 * h1 + p2 * h2 + *p3 * h3)
    } else {
        (*p1 * (*f1 - *f3) * f2 - p2 * (f2 - *f3) * *f1) / ((*f1 - f2) * *f3)
    };
    if f2 < 0.0 {
        *p3 = p2;
        *f3 = f2;
    } else {
        *p1 = p2;
        *f1 = f2;
    }
    p
}

/// FITPACK `fpbspl` for k = 3 with 1-based knots `t` (slot 0 unused) and 1-based interval
/// l: the k+1 non-zero B-splines at x, returned 1-based (slot 0 unused). The knots it reads,
/// t[l−2..=l+3], are taken as one window so that the unrolled loops index it directly.
#[inline]
fn fpbspl(t: &[f64], x: f64, l: usize) -> [f64; 7] {
    // window slot w holds t[l − 2 + w]
    let tw = &t[l - 2..l + 4];
    let h = crate::fitpack::bsplines_in_window(&[tw[0], tw[1], tw[2], tw[3], tw[4], tw[5]], x);
    [0.0, h[0], h[1], h[2], h[3], 0.0, 0.0]
}

/// FITPACK `fpbacp`: solve g·c = z, g = [a | b] upper triangular (a of bandwidth k1, b n×k).
fn fpbacp<const A: usize, const B: usize>(
    a: &Mat<A>,
    b: &Mat<B>,
    z: &[f64],
    n: usize,
    k: usize,
) -> Vec<f64> {
    let mut c = vec![0.0; z.len()];
    let mut l = n;
    for i in 1..=k {
        let mut store = z[l];
        let j = k + 2 - i;
        if i != 1 {
            let mut l0 = l;
            for l1 in j..=k {
                l0 += 1;
                store -= c[l0] * b.at(l, l1);
            }
        }
        c[l] = store / b.at(l, j - 1);
        l -= 1;
        if l == 0 {
            return c;
        }
    }
    // reached only when n > k
    let n2 = n - k;
    for i in 1..=n2 {
        let mut store = z[i];
        let mut l = n2;
        for j in 1..=k {
            l += 1;
            store -= c[l] * b.at(i, j);
        }
        c[i] = store;
    }
    let mut i = n2;
    c[i] /= a.at(i, 1);
    if i == 1 {
        return c;
    }
    for j in 2..=n2 {
        i -= 1;
        let mut store = c[i];
        let i1 = if j <= k { j - 1 } else { k };
        let mut l = i;
        for l0 in 1..=i1 {
            l += 1;
            store -= c[l] * a.at(i, l0 + 1);
        }
        c[i] = store / a.at(i, 1);
    }
    c
}

/// FITPACK `fpdisc`: jumps of the k-th derivative of the B-splines at the interior knots.
fn fpdisc(t: &[f64], n: usize, k2: usize, nest: usize) -> Mat<{ K + 3 }> {
    let k1 = k2 - 1;
    let k = k1 - 1;
    let nk1 = n - k1;
    let nrint = nk1 - k;
    let an = nrint as f64;
    let fac = an / (t[nk1 + 1] - t[k1]);
    let mut b = Mat::new(nest);
    let mut h = [0.0; 13];
    for l in k2..=nk1 {
        let lmk = l - k1;
        for j in 1..=k1 {
            let ik = j + k1;
            let lj = l + j;
            let lk = lj - k2;
            h[j] = t[l] - t[lk];
            h[ik] = t[l] - t[lj];
        }
        let mut lp = lmk;
        for j in 1..=k2 {
            let mut jk = j;
            let mut prod = h[j];
            for _ in 1..=k {
                jk += 1;
                prod = prod * h[jk] * fac;
            }
            let lk = lp + k1;
            b.set(lmk, j, (t[lk] - t[lp]) / prod);
            lp += 1;
        }
    }
    b
}

/// FITPACK `fpknot`: add one knot in the interval with the largest residual sum.
#[allow(clippy::too_many_arguments)]
fn fpknot(
    x: &[f64],
    t: &mut [f64],
    n: &mut usize,
    fpint: &mut [f64],
    nrdata: &mut [i64],
    nrint: &mut usize,
    istart: i64,
) {
    let k = (*n - *nrint - 1) / 2;
    let mut fpmax = 0.0;
    let mut jbegin = istart;
    let (mut number, mut maxpt, mut maxbeg) = (0usize, 0i64, 0i64);
    for j in 1..=*nrint {
        let jpoint = nrdata[j];
        if !(fpmax >= fpint[j] || jpoint == 0) {
            fpmax = fpint[j];
            number = j;
            maxpt = jpoint;
            maxbeg = jbegin;
        }
        jbegin += jpoint + 1;
    }
    let ihalf = maxpt / 2 + 1;
    let nrx = (maxbeg + ihalf) as usize;
    let next = number + 1;
    if next <= *nrint {
        for j in next..=*nrint {
            let jj = next + *nrint - j;
            fpint[jj + 1] = fpint[jj];
            nrdata[jj + 1] = nrdata[jj];
            let jk = jj + k;
            t[jk + 1] = t[jk];
        }
    }
    nrdata[number] = ihalf - 1;
    nrdata[next] = maxpt - ihalf;
    let am = maxpt as f64;
    fpint[number] = fpmax * nrdata[number] as f64 / am;
    fpint[next] = fpmax * nrdata[next] as f64 / am;
    let jk = next + k;
    t[jk] = x[nrx];
    *n += 1;
    *nrint += 1;
}

/// One Givens step of FITPACK's row rotation where the periodic B-splines vanish: the
/// observation row's B-spline value `h[i]` is rotated into the triangle row `row` (its
/// diagonal `row[1]`), taking along the right-hand sides (`xi` into `z0`, `z1`) and the
/// row's later values h[i+1..=k1].
#[inline(always)]
fn givens_step(
    row: &mut [f64; K + 2],
    z0: &mut f64,
    z1: &mut f64,
    h: &mut [f64; 7],
    xi: &mut [f64; 2],
    i: usize,
) {
    let piv = h[i];
    if piv == 0.0 {
        return;
    }
    let (cos, sin) = fpgivs(piv, &mut row[1]);
    fprota(cos, sin, &mut xi[0], z0);
    fprota(cos, sin, &mut xi[1], z1);
    // FITPACK's i2 = i1 − i + 1
    for i1 in (i + 1)..=K + 1 {
        fprota(cos, sin, &mut h[i1], &mut row[i1 - i + 1]);
    }
}

/// Rotates the observation row (B-spline values `h[1..=k1]`, right-hand side `xi`) into the
/// triangle rows `rows` (a1's rows l5+1..=l5+k1, with `z0`, `z1` the same rows of the
/// right-hand sides) by Givens rotations, as `fpclos` does where the periodic B-splines
/// vanish; rows and windows are taken whole so that the unrolled loops index them directly.
/// The sequential form of [`rotate_rows_wave`], kept as its twin.
#[cfg(test)]
fn rotate_row(
    rows: &mut [[f64; K + 2]],
    z0: &mut [f64],
    z1: &mut [f64],
    h: &mut [f64; 7],
    xi: &mut [f64; 2],
) {
    for i in 1..=K + 1 {
        givens_step(&mut rows[i - 1], &mut z0[i - 1], &mut z1[i - 1], h, xi, i);
    }
}

/// [`rotate_row`] for a run of observation rows of one knot interval (the same triangle
/// rows), adding each row's squared residual to `fp` in order. Row p's step i depends only
/// on its own step i − 1 and on row p − 1's step i (the same triangle row), so the steps run
/// as a wavefront: step s takes row s − i + 1's step i for i = k1 down to 1, oldest row
/// first. Each triangle row sees the same rotations in the same order as the sequential
/// sweep (bit for bit), but the four steps of a wave are independent, so the divisions and
/// square roots of neighbouring rows overlap instead of waiting for each other.
fn rotate_rows_wave(
    rows: &mut [[f64; K + 2]],
    z0: &mut [f64],
    z1: &mut [f64],
    obs: &mut [([f64; 7], [f64; 2])],
    fp: &mut f64,
) {
    let (rows, z0, z1) = (&mut rows[..K + 1], &mut z0[..K + 1], &mut z1[..K + 1]);
    let n = obs.len();
    for s in 0..n + K {
        for i in (1..=K + 1).rev() {
            let Some(p) = (s + 1).checked_sub(i).filter(|&p| p < n) else {
                continue;
            };
            let (h, xi) = &mut obs[p];
            givens_step(&mut rows[i - 1], &mut z0[i - 1], &mut z1[i - 1], h, xi, i);
            if i == K + 1 {
                *fp += xi[0] * xi[0] + xi[1] * xi[1];
            }
        }
    }
}

/// An observation row where the periodic B-splines do not vanish, split as `fpclos` splits
/// it: `h1` the values in a1's columns (the B-splines past n7, wrapped round), `h2` those in
/// a2's k columns, `xi` its right-hand sides; `h1_done` once its sweep through a1 has ended.
#[derive(Clone, Copy)]
struct PeriodicRow {
    h1: [f64; 8],
    h2: [f64; 8],
    xi: [f64; 2],
    h1_done: bool,
}

impl PeriodicRow {
    /// The row of the B-spline values `h` (1-based) of a point in the interval with `l5`.
    fn new(h: [f64; 7], l5: usize, n10: i64, xi: [f64; 2]) -> Self {
        let (kk, kk1) = (K, K + 1);
        let mut h1 = [0.0; 8];
        let mut h2 = [0.0; 8];
        let mut j = l5 as i64 - n10;
        for i in 1..=kk1 {
            j += 1;
            let mut l0 = j;
            loop {
                let l1 = l0 - kk as i64;
                if l1 <= 0 {
                    h2[l0 as usize] += h[i];
                    break;
                }
                if l1 <= n10 {
                    h1[l1 as usize] = h[i];
                    break;
                }
                l0 = l1 - n10;
            }
        }
        PeriodicRow {
            h1,
            h2,
            xi,
            h1_done: n10 <= 0,
        }
    }

    /// Step j (1..=n10) of the sweep through a1: the Givens rotation with a1's row j (taking
    /// along z's and a2's row j), or the shift past a zero pivot; ends the sweep at row n10
    /// or once `h1` is all zeros.
    #[inline(always)]
    fn a1_step(
        &mut self,
        a1: &mut Mat<{ K + 2 }>,
        a2: &mut Mat<{ K + 1 }>,
        z: &mut [Vec<f64>; 2],
        j: usize,
        n10u: usize,
    ) {
        let (kk, kk1) = (K, K + 1);
        let h1 = &mut self.h1;
        let piv = h1[1];
        if piv == 0.0 {
            if h1[2..=kk1].iter().all(|&v| v == 0.0) {
                // h1 is all zeros (it holds at most kk1 values): the rest of the sweep
                // would only shift them
                self.h1_done = true;
                return;
            }
            for i in 1..=kk {
                h1[i] = h1[i + 1];
            }
            h1[kk1] = 0.0;
            return;
        }
        let (cos, sin) = fpgivs(piv, a1.get_mut(j, 1));
        for d in 0..2 {
            fprota(cos, sin, &mut self.xi[d], &mut z[d][j]);
        }
        for (i, h2i) in self.h2.iter_mut().enumerate().take(kk + 1).skip(1) {
            fprota(cos, sin, h2i, a2.get_mut(j, i));
        }
        if j == n10u {
            self.h1_done = true;
            return;
        }
        let i2 = (n10u - j).min(kk);
        let mut i1 = 0;
        for i in 1..=i2 {
            i1 = i + 1;
            let mut hv = h1[i1];
            fprota(cos, sin, &mut hv, a1.get_mut(j, i1));
            h1[i1] = hv;
            h1[i] = h1[i1];
        }
        h1[i1] = 0.0;
    }

    /// Step j (1..=k) of the rotation into a2's rows n10+1..=n10+k.
    #[inline(always)]
    fn a2_step(&mut self, a2: &mut Mat<{ K + 1 }>, z: &mut [Vec<f64>; 2], j: usize, n10: i64) {
        let ij = n10 + j as i64;
        if ij <= 0 {
            return;
        }
        let ij = ij as usize;
        let h2 = &mut self.h2;
        let piv = h2[j];
        if piv == 0.0 {
            return;
        }
        let (cos, sin) = fpgivs(piv, a2.get_mut(ij, j));
        for d in 0..2 {
            fprota(cos, sin, &mut self.xi[d], &mut z[d][ij]);
        }
        for i in (j + 1)..=K {
            let mut hv = h2[i];
            fprota(cos, sin, &mut hv, a2.get_mut(ij, i));
            h2[i] = hv;
        }
    }
}

/// Rotates an observation row where the periodic B-splines do not vanish into the triangle
/// [a1 | a2] (right-hand sides `z`), as `fpclos` does. The sequential form of
/// [`rotate_periodic_wave`], kept as its twin.
#[cfg(test)]
fn rotate_periodic_row(
    a1: &mut Mat<{ K + 2 }>,
    a2: &mut Mat<{ K + 1 }>,
    z: &mut [Vec<f64>; 2],
    row: &mut PeriodicRow,
    n10: i64,
) {
    let n10u = n10.max(0) as usize;
    for j in 1..=n10u {
        if row.h1_done {
            break;
        }
        row.a1_step(a1, a2, z, j, n10u);
    }
    for j in 1..=K {
        row.a2_step(a2, z, j, n10);
    }
}

/// [`rotate_periodic_row`] for the periodic rows of a sweep, in order, adding each row's
/// squared residual to `fp` in order. Every such row passes the same steps on the same
/// triangle rows (a1's rows 1..=n10, then a2's rows n10+1..=n10+k), and row p's step j
/// depends only on its own step j − 1 and on row p − 1's step j, so the steps run as a
/// wavefront as in [`rotate_rows_wave`]: bit for bit the sequential sweep, with the
/// rotations of up to n10 + k rows in flight at once.
fn rotate_periodic_wave(
    a1: &mut Mat<{ K + 2 }>,
    a2: &mut Mat<{ K + 1 }>,
    z: &mut [Vec<f64>; 2],
    rows: &mut [PeriodicRow],
    n10: i64,
    fp: &mut f64,
) {
    let n10u = n10.max(0) as usize;
    let steps = n10u + K;
    let n = rows.len();
    for s in 0..n + steps - 1 {
        for j in (1..=steps).rev() {
            let Some(p) = (s + 1).checked_sub(j).filter(|&p| p < n) else {
                continue;
            };
            let row = &mut rows[p];
            if j <= n10u {
                if !row.h1_done {
                    row.a1_step(a1, a2, z, j, n10u);
                }
            } else {
                row.a2_step(a2, z, j - n10u, n10);
            }
            if j == steps {
                *fp += row.xi[0] * row.xi[0] + row.xi[1] * row.xi[1];
            }
        }
    }
}

/// Rotates the pending observation rows `run` of the knot interval with `l5` into a1's rows
/// l5+1..=l5+k1 ([`rotate_rows_wave`]) and empties it.
fn wave_run(
    a1: &mut Mat<{ K + 2 }>,
    z: &mut [Vec<f64>; 2],
    l5: usize,
    run: &mut Vec<([f64; 7], [f64; 2])>,
    fp: &mut f64,
) {
    if run.is_empty() {
        return;
    }
    let [z0, z1] = z;
    rotate_rows_wave(
        &mut a1.rows[l5 + 1..l5 + 2 + K],
        &mut z0[l5 + 1..l5 + 2 + K],
        &mut z1[l5 + 1..l5 + 2 + K],
        run,
        fp,
    );
    run.clear();
}

/// The spline's value at a data point: the k1 coefficients from l0 + 1 (`c`) times the
/// point's B-spline values (`q`, its row of the matrix q, 1-based), summed in FITPACK's order.
#[inline]
fn spline_value(c: &[f64], q: &[f64; K + 2]) -> f64 {
    let c = &c[..K + 1];
    let mut fac = 0.0;
    for j in 1..=K + 1 {
        fac += c[j - 1] * q[j];
    }
    fac
}

/// Result of [`clocur`]: knots and per-dimension coefficients, 0-based.
#[derive(Debug, Clone)]
pub struct ClocurFit {
    /// Knots, length n.
    pub t: Vec<f64>,
    /// Coefficients per dimension, each n − k − 1 long.
    pub c: [Vec<f64>; 2],
    /// Weighted sum of squared residuals.
    // FITPACK's diagnostics, returned as the port computes them; `PeriodicSpline::fit` uses the
    // fit whatever they say (as SciPy does), the unit tests check them.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fp: f64,
    /// FITPACK's ier (0 ok, −2 a single point, 1..3 warnings/limits).
    #[cfg_attr(not(test), allow(dead_code))]
    pub ier: i32,
}

/// FITPACK `clocur` (iopt = 0, k = 3, idim = 2, unit weights) on parameters u (u[0] = 0,
/// u[m−1] = 1) and closed data x (x[m−1] == x[0]) with smoothing factor s > 0.
pub fn clocur(u0: &[f64], x0: &[[f64; 2]], s: f64) -> ClocurFit {
    const IDIM: usize = 2;
    let k = K;
    let k1 = k + 1;
    let k2 = k1 + 1;
    let m = u0.len();
    let nest = m + 2 * k;
    let tol = 0.001;
    let maxit = 20;
    let (con1, con9, con4, half) = (0.1, 0.9, 0.04, 0.5);
    // 1-based copies
    let mut u = vec![0.0; m + 1];
    u[1..].copy_from_slice(u0);
    let xv = |it: usize, d: usize| x0[it - 1][d];
    let w = 1.0;

    let mut t = vec![0.0; nest + 2];
    let mut fpint = vec![0.0; nest + 2];
    let mut nrdata = vec![0i64; nest + 2];
    let mut z = [vec![0.0; nest + 2], vec![0.0; nest + 2]];
    let mut c = [vec![0.0; nest + 2], vec![0.0; nest + 2]];
    let mut a1: Mat<{ K + 2 }> = Mat::new(nest);
    let mut a2: Mat<{ K + 1 }> = Mat::new(nest);
    let mut q: Mat<{ K + 2 }> = Mat::new(m);
    let mut ier = 0;
    let mut run: Vec<([f64; 7], [f64; 2])> = Vec::new();
    let mut periodic: Vec<PeriodicRow> = Vec::new();

    let m1 = m - 1;
    let kk = k;
    let kk1 = k1;
    let nmin = 2 * k1;
    let per = u[m] - u[1];
    let acc = tol * s;
    let nmax = m + 2 * k;
    let mut n;

    // least-squares fixed point (p = 0)
    let mut fp0 = 0.0;
    let mut d1 = 0.0;
    let mut zc = [0.0; IDIM];
    for it in 1..=m1 {
        let wi = w;
        let (cos, sin) = fpgivs(wi, &mut d1);
        for (j, zj) in zc.iter_mut().enumerate() {
            let mut fac = wi * xv(it, j);
            fprota(cos, sin, &mut fac, zj);
            fp0 += fac * fac;
        }
    }
    for zj in zc.iter_mut() {
        *zj /= d1;
    }
    let mut fpms = fp0 - s;
    if fpms < acc || nmax == nmin {
        // the constant curve at the mean is the solution
        let mut tt = vec![0.0; nmin];
        for i in 1..=k1 {
            tt[i - 1] = u[1] - (k1 - i) as f64 * per;
            tt[i + k1 - 1] = u[m] + (i - 1) as f64 * per;
        }
        return ClocurFit {
            t: tt,
            c: [vec![zc[0]; k1], vec![zc[1]; k1]],
            fp: fp0,
            ier: -2,
        };
    }
    let mut fpold = fp0;
    let mut nplus: i64 = 1;
    n = nmin + 1;
    let mm = m.div_ceil(2);
    t[k2] = u[mm];
    nrdata[1] = mm as i64 - 2;
    nrdata[2] = (m1 - mm) as i64;

    let mut fp = 0.0;
    let mut n7 = 0;
    let mut n10: i64 = 0;
    let mut part2 = false;
    'knots: for _iter in 1..=m {
        let mut nrint = n - nmin + 1;
        t[k1] = u[1];
        let nk1 = n - k1;
        let nk2 = nk1 + 1;
        t[nk2] = u[m];
        for j in 1..=k {
            t[nk2 + j] = t[k1 + j] + per;
            t[k1 - j] = t[nk2 - j] - per;
        }
        n7 = nk1 - k;
        // rows past n7 are never written (n only grows), so they are still zero
        for zd in z.iter_mut() {
            zd[..=n7].fill(0.0);
        }
        a1.clear_to(n7);
        n10 = n7 as i64 - kk as i64;
        let mut jper = false;
        fp = 0.0;
        let mut l = k1;
        // the observation rows of the current knot interval not yet rotated in, and their l5
        run.clear();
        let mut run_l5 = 0;
        // the observation rows where the periodic B-splines do not vanish (the last ones)
        periodic.clear();
        for it in 1..=m1 {
            let ui = u[it];
            let wi = w;
            let xi = [xv(it, 0) * wi, xv(it, 1) * wi];
            while ui >= t[l + 1] {
                l += 1;
            }
            let mut h = fpbspl(&t, ui, l);
            for i in 1..=k1 {
                q.set(it, i, h[i]);
                h[i] *= wi;
            }
            let l5 = l - k1;
            if (l5 as i64) < n10 {
                // all of the B-splines n7+1..nk1 vanish at ui; rows j = l5 + i, i = 1..=kk1,
                // taken as windows (slot i − 1) so that the unrolled loops index them directly
                if l5 != run_l5 {
                    wave_run(&mut a1, &mut z, run_l5, &mut run, &mut fp);
                    run_l5 = l5;
                }
                run.push((h, xi));
                continue;
            }
            wave_run(&mut a1, &mut z, run_l5, &mut run, &mut fp);
            if !jper {
                a2.clear_to(n7);
                let mut jk = n10 + 1;
                for i in 1..=kk {
                    let mut ik = jk;
                    for j in 1..=kk1 {
                        if ik <= 0 {
                            break;
                        }
                        a2.set(ik as usize, i, a1.at(ik as usize, j));
                        ik -= 1;
                    }
                    jk += 1;
                }
                jper = true;
            }
            periodic.push(PeriodicRow::new(h, l5, n10, xi));
        }
        wave_run(&mut a1, &mut z, run_l5, &mut run, &mut fp);
        rotate_periodic_wave(&mut a1, &mut a2, &mut z, &mut periodic, n10, &mut fp);
        fpint[n] = fp0;
        fpint[n - 1] = fpold;
        nrdata[n] = nplus;
        for d in 0..IDIM {
            c[d] = fpbacp(&a1, &a2, &z[d], n7, kk);
            for i in 1..=k {
                c[d][i + n7] = c[d][i];
            }
        }
        fpms = fp - s;
        if fpms.abs() < acc {
            return finish(&t, &c, n, k, fp, ier);
        }
        if fpms < 0.0 {
            part2 = true;
            break 'knots;
        }
        if n == nmax {
            return finish(&t, &c, n, k, fp, -1);
        }
        if n == nest {
            return finish(&t, &c, n, k, fp, 1);
        }
        let mut npl1 = nplus * 2;
        let rn = nplus as f64;
        if fpold - fp > acc {
            npl1 = (rn * fpms / (fpold - fp)) as i64;
        }
        nplus = (nplus * 2).min(npl1.max(nplus / 2).max(1));
        fpold = fp;
        // residual sum per knot interval
        let mut fpart = 0.0;
        let mut i = 1;
        let mut l = k1;
        let mut new = false;
        for it in 1..=m1 {
            if u[it] >= t[l] {
                new = true;
                l += 1;
            }
            let mut term = 0.0;
            let l0 = l - k2;
            for d in 0..IDIM {
                let fac = spline_value(&c[d][l0 + 1..=l0 + K + 1], &q.rows[it]);
                term += (w * (fac - xv(it, d))).powi(2);
            }
            fpart += term;
            if !new {
                continue;
            }
            if l > k2 {
                let store = term * half;
                fpint[i] = fpart - store;
                i += 1;
                fpart = store;
            } else {
                fpint[nrint] = term;
            }
            new = false;
        }
        fpint[nrint] += fpart;
        for _ in 1..=nplus {
            fpknot(&u, &mut t, &mut n, &mut fpint, &mut nrdata, &mut nrint, 1);
            if n == nmax {
                // as many knots as for interpolation: place them at the data points (odd k)
                t[(2 + k)..(m1 + k + 1)].copy_from_slice(&u[2..(m1 + 1)]);
                continue 'knots;
            }
            if n == nest {
                continue 'knots;
            }
        }
    }
    let _ = part2;

    // part 2: the smoothing spline with f(p) = s, p by rational interpolation
    let b = fpdisc(&t, n, k2, nest);
    let mut p1 = 0.0;
    let mut f1 = fp0 - s;
    let mut p3 = -1.0;
    let mut f3 = fpms;
    let n11 = n10 - 1;
    let n8 = n7 - 1;
    let mut p = 0.0;
    let mut l = n7;
    let mut done = false;
    for i in 1..=k {
        let j = k + 1 - i;
        p += a2.at(l, j);
        l -= 1;
        if l == 0 {
            done = true;
            break;
        }
    }
    if !done {
        for i in 1..=n10.max(0) as usize {
            p += a1.at(i, 1);
        }
    }
    let rn = n7 as f64;
    p = rn / p;
    let mut ich1 = false;
    let mut ich3 = false;
    let mut g1: Mat<{ K + 3 }> = Mat::new(nest);
    let mut g2: Mat<{ K + 2 }> = Mat::new(nest);
    for iter in 1..=maxit {
        let pinv = 1.0 / p;
        c[0].copy_from_slice(&z[0]);
        c[1].copy_from_slice(&z[1]);
        for i in 1..=n7 {
            g1.set(i, k1, a1.at(i, k1));
            g1.set(i, k2, 0.0);
            g2.set(i, 1, 0.0);
            for j in 1..=k {
                g1.set(i, j, a1.at(i, j));
                g2.set(i, j + 1, a2.at(i, j));
            }
        }
        let mut l = n10;
        for j in 1..=k1 {
            if l <= 0 {
                break;
            }
            g2.set(l as usize, 1, a1.at(l as usize, j));
            l -= 1;
        }
        for it in 1..=n8 {
            let mut xi = [0.0; IDIM];
            let mut h1 = [0.0; 8];
            let mut h2 = [0.0; 8];
            let lstart;
            let mut rotate_g1 = true;
            if (it as i64) <= n11 {
                lstart = it;
                let mut l0 = it;
                let mut jhit = 0;
                for j in 1..=k2 {
                    if l0 as i64 == n10 {
                        jhit = j;
                        break;
                    }
                    h1[j] = b.at(it, j) * pinv;
                    l0 += 1;
                }
                if jhit > 0 {
                    let mut l0 = 1;
                    for l1 in jhit..=k2 {
                        h2[l0] = b.at(it, l1) * pinv;
                        l0 += 1;
                    }
                }
            } else {
                lstart = 1;
                let mut i = it as i64 - n10;
                for j in 1..=k2 {
                    i += 1;
                    let mut l0 = i;
                    loop {
                        let l1 = l0 - k1 as i64;
                        if l1 <= 0 {
                            h2[l0 as usize] += b.at(it, j) * pinv;
                            break;
                        }
                        if l1 <= n11 {
                            h1[l1 as usize] = b.at(it, j) * pinv;
                            break;
                        }
                        l0 = l1 - n11;
                    }
                }
                if n11 <= 0 {
                    rotate_g1 = false;
                }
            }
            if rotate_g1 && n11 >= lstart as i64 {
                for j in lstart..=(n11 as usize) {
                    let piv = h1[1];
                    let (cos, sin) = fpgivs(piv, g1.get_mut(j, 1));
                    for d in 0..IDIM {
                        fprota(cos, sin, &mut xi[d], &mut c[d][j]);
                    }
                    for (i, h2i) in h2.iter_mut().enumerate().take(k1 + 1).skip(1) {
                        fprota(cos, sin, h2i, g2.get_mut(j, i));
                    }
                    if j as i64 == n11 {
                        break;
                    }
                    let i2 = ((n11 as usize) - j).min(k1);
                    let mut i1 = 0;
                    for i in 1..=i2 {
                        i1 = i + 1;
                        let mut hv = h1[i1];
                        fprota(cos, sin, &mut hv, g1.get_mut(j, i1));
                        h1[i1] = hv;
                        h1[i] = h1[i1];
                    }
                    h1[i1] = 0.0;
                }
            }
            for j in 1..=k1 {
                let ij = n11 + j as i64;
                if ij <= 0 {
                    continue;
                }
                let ij = ij as usize;
                let piv = h2[j];
                let (cos, sin) = fpgivs(piv, g2.get_mut(ij, j));
                for d in 0..IDIM {
                    fprota(cos, sin, &mut xi[d], &mut c[d][ij]);
                }
                if j == k1 {
                    break;
                }
                for i in (j + 1)..=k1 {
                    let mut hv = h2[i];
                    fprota(cos, sin, &mut hv, g2.get_mut(ij, i));
                    h2[i] = hv;
                }
            }
        }
        for d in 0..IDIM {
            c[d] = fpbacp(&g1, &g2, &c[d], n7, k1);
            for i in 1..=k {
                c[d][i + n7] = c[d][i];
            }
        }
        fp = 0.0;
        let mut l = k1;
        for it in 1..=m1 {
            if u[it] >= t[l] {
                l += 1;
            }
            let l0 = l - k2;
            let mut term = 0.0;
            for d in 0..IDIM {
                let fac = spline_value(&c[d][l0 + 1..=l0 + K + 1], &q.rows[it]);
                term += (fac - xv(it, d)).powi(2);
            }
            fp += term * w * w;
        }
        fpms = fp - s;
        if fpms.abs() < acc {
            return finish(&t, &c, n, k, fp, ier);
        }
        if iter == maxit {
            ier = 3;
            return finish(&t, &c, n, k, fp, ier);
        }
        let p2 = p;
        let f2 = fpms;
        if !ich3 {
            if f2 - f3 <= acc {
                // the initial p is too large
                p3 = p2;
                f3 = f2;
                p *= con4;
                if p <= p1 {
                    p = p1 * con9 + p2 * con1;
                }
                continue;
            }
            if f2 < 0.0 {
                ich3 = true;
            }
        }
        if !ich1 {
            if f1 - f2 <= acc {
                // the initial p is too small
                p1 = p2;
                f1 = f2;
                p /= con4;
                if p3 < 0.0 {
                    continue;
                }
                if p >= p3 {
                    p = p2 * con1 + p3 * con9;
                }
                continue;
            }
            if f2 > 0.0 {
                ich1 = true;
            }
        }
        if f2 >= f1 || f2 <= f3 {
            ier = 2;
            return finish(&t, &c, n, k, fp, ier);
        }
        p = fprati(&mut p1, &mut f1, p2, f2, &mut p3, &mut f3);
    }
    finish(&t, &c, n, k, fp, 3)
}

/// 0-based knots and the n − k − 1 coefficients per dimension.
fn finish(t: &[f64], c: &[Vec<f64>; 2], n: usize, k: usize, fp: f64, ier: i32) -> ClocurFit {
    let nc = n - k - 1;
    ClocurFit {
        t: t[1..=n].to_vec(),
        c: [c[0][1..=nc].to_vec(), c[1][1..=nc].to_vec()],
        fp,
        ier,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// Parameters as `PeriodicSpline::fit` computes them: chord lengths over the total.
    fn chord_parameters(pts: &[[f64; 2]]) -> Vec<f64> {
        let m = pts.len();
        let mut u = vec![0.0; m];
        for i in 1..m {
            let dx = pts[i][0] - pts[i - 1][0];
            let dy = pts[i][1] - pts[i - 1][1];
            u[i] = u[i - 1] + (dx * dx + dy * dy).sqrt();
        }
        let total = u[m - 1];
        for v in u.iter_mut().skip(1) {
            *v /= total;
        }
        u[m - 1] = 1.0;
        u
    }

    fn assert_same(fit: &ClocurFit, twin: &ClocurFit) {
        assert_eq!(bits(&fit.t), bits(&twin.t));
        assert_eq!(bits(&fit.c[0]), bits(&twin.c[0]));
        assert_eq!(bits(&fit.c[1]), bits(&twin.c[1]));
        assert_eq!(fit.fp.to_bits(), twin.fp.to_bits());
        assert_eq!(fit.ier, twin.ier);
    }

    proptest::proptest! {
        /// The wavefront rotation of a run of observation rows leaves the triangle rows,
        /// right-hand sides, rows and residual sum bit for bit as rotating them in one after
        /// the other does, exact zeros (skipped pivots) included.
        #[test]
        fn wave_rotation_matches_sequential(
            start in proptest::collection::vec(-2.0f64..2.0, 24),
            obs in proptest::collection::vec(
                (proptest::collection::vec(-1.0f64..1.0, 4), -5.0f64..5.0, -5.0f64..5.0, 0usize..6),
                0..12,
            ),
        ) {
            let mut rows = [[0.0; K + 2]; K + 1];
            let (mut z0, mut z1) = ([0.0; K + 1], [0.0; K + 1]);
            for r in 0..=K {
                rows[r][1] = start[r].abs() + 0.1;
                for c in 2..K + 2 {
                    rows[r][c] = start[4 + 3 * r + c - 2];
                }
                z0[r] = start[16 + r];
                z1[r] = start[20 + r];
            }
            let mut run: Vec<([f64; 7], [f64; 2])> = obs
                .iter()
                .map(|(h, x, y, zero)| {
                    let mut row = [0.0; 7];
                    row[1..=K + 1].copy_from_slice(h);
                    if (1..=K + 1).contains(zero) {
                        row[*zero] = 0.0;
                    }
                    (row, [*x, *y])
                })
                .collect();
            let (mut seq_rows, mut seq_z0, mut seq_z1, mut seq_fp) = (rows, z0, z1, 0.25);
            for (h, xi) in &run {
                let (mut h, mut xi) = (*h, *xi);
                rotate_row(&mut seq_rows, &mut seq_z0, &mut seq_z1, &mut h, &mut xi);
                seq_fp += xi[0] * xi[0] + xi[1] * xi[1];
            }
            let mut fp = 0.25;
            rotate_rows_wave(&mut rows, &mut z0, &mut z1, &mut run, &mut fp);
            for r in 0..=K {
                proptest::prop_assert_eq!(bits(&rows[r]), bits(&seq_rows[r]));
            }
            proptest::prop_assert_eq!(bits(&z0), bits(&seq_z0));
            proptest::prop_assert_eq!(bits(&z1), bits(&seq_z1));
            proptest::prop_assert_eq!(fp.to_bits(), seq_fp.to_bits());
        }
    }

    proptest::proptest! {
        /// The wavefront rotation of the periodic rows leaves [a1 | a2], the right-hand
        /// sides and the residual sum bit for bit as rotating the rows in one after the
        /// other does, for triangles from none to a dozen a1 rows and rows of every interval
        /// with wrapped B-splines, exact zeros included.
        #[test]
        fn periodic_wave_matches_sequential(
            n10 in -1i64..12,
            fill in proptest::collection::vec(-2.0f64..2.0, 120),
            obs in proptest::collection::vec(
                (proptest::collection::vec(-1.0f64..1.0, 4), -5.0f64..5.0, -5.0f64..5.0, 0usize..3, 0usize..6),
                0..20,
            ),
        ) {
            let n7 = (n10 + K as i64) as usize;
            let mut a1: Mat<{ K + 2 }> = Mat::new(n7 + 1);
            let mut a2: Mat<{ K + 1 }> = Mat::new(n7 + 1);
            let mut z = [vec![0.0; n7 + 2], vec![0.0; n7 + 2]];
            let mut next = fill.iter().cycle();
            for r in 1..=n7 {
                a1.set(r, 1, next.next().unwrap().abs() + 0.1);
                for c in 2..K + 2 {
                    a1.set(r, c, *next.next().unwrap());
                }
                for c in 1..K + 1 {
                    a2.set(r, c, *next.next().unwrap());
                }
                z[0][r] = *next.next().unwrap();
                z[1][r] = *next.next().unwrap();
            }
            let mut rows: Vec<PeriodicRow> = obs
                .iter()
                .map(|(h, x, y, offset, zero)| {
                    let mut hv = [0.0; 7];
                    hv[1..=K + 1].copy_from_slice(h);
                    if (1..=K + 1).contains(zero) {
                        hv[*zero] = 0.0;
                    }
                    let l5 = (n10.max(0) as usize + offset).min(n7 - 1);
                    PeriodicRow::new(hv, l5, n10, [*x, *y])
                })
                .collect();
            let (mut sa1, mut sa2, mut sz, mut sfp) = (a1.clone(), a2.clone(), z.clone(), 0.5);
            for row in &rows {
                let mut row = *row;
                rotate_periodic_row(&mut sa1, &mut sa2, &mut sz, &mut row, n10);
                sfp += row.xi[0] * row.xi[0] + row.xi[1] * row.xi[1];
            }
            let mut fp = 0.5;
            rotate_periodic_wave(&mut a1, &mut a2, &mut z, &mut rows, n10, &mut fp);
            for r in 1..=n7 {
                proptest::prop_assert_eq!(bits(&a1.rows[r]), bits(&sa1.rows[r]));
                proptest::prop_assert_eq!(bits(&a2.rows[r]), bits(&sa2.rows[r]));
            }
            proptest::prop_assert_eq!(bits(&z[0]), bits(&sz[0]));
            proptest::prop_assert_eq!(bits(&z[1]), bits(&sz[1]));
            proptest::prop_assert_eq!(fp.to_bits(), sfp.to_bits());
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// The port gives bit-identical knots, coefficients, residual and ier to its naive
        /// twin on noisy closed loops of a few to a thousand points, for smoothing factors
        /// from interpolation-like to "a constant is enough".
        #[test]
        fn clocur_matches_naive_twin(
            m in 8usize..1000,
            wiggle in proptest::collection::vec(-1.0f64..1.0, 1..50),
            noise in 0.0f64..0.2,
            aspect in 0.3f64..3.0,
            s_exp in -4.0f64..4.0,
        ) {
            let pts: Vec<[f64; 2]> = (0..=m)
                .map(|i| {
                    let i = i % m;
                    let a = std::f64::consts::TAU * i as f64 / m as f64;
                    let r = 10.0
                        + wiggle.iter().enumerate().map(|(h, w)| w * ((h + 2) as f64 * a).sin()).sum::<f64>()
                        + noise * wiggle[i % wiggle.len()];
                    [r * a.cos(), aspect * r * a.sin()]
                })
                .collect();
            let u = chord_parameters(&pts);
            let s = 10f64.powf(s_exp);
            assert_same(&clocur(&u, &pts, s), &naive::clocur(&u, &pts, s));
        }
    }
}
