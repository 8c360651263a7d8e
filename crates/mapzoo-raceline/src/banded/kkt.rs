//! The reduced KKT matrix of a QP laid out knot by knot ([`Layout`]), assembled into a
//! [`BlockCyclic`] matrix from precomputed places ([`Kkt`]), and its regularised solve with
//! iterative refinement.

// Dense kernels over several parallel arrays read best with explicit indices.
#![allow(clippy::needless_range_loop)]

use super::cyclic::{BlockCyclic, Factor};
use super::problem::{Failure, Grouped, Problem};

/// Where each row of a KKT system sits: the knot of each variable and of each row kept as
/// an equation, the unknowns ordered knot by knot (variables first, then rows).
pub(super) struct Layout {
    /// Index of each variable among the unknowns.
    pub(super) var: Vec<usize>,
    /// Index of each kept row among the unknowns (`usize::MAX`: not kept).
    pub(super) row: Vec<usize>,
    /// Unknowns per knot.
    pub(super) size: Vec<usize>,
}

impl Layout {
    /// Variables by knot, and the rows `kept` (as equations) each placed at the knot in the
    /// middle of those its columns touch. `None` when a row spans more than three neighbours.
    pub(super) fn new(pb: &Problem, kept: &[bool]) -> Option<Layout> {
        let nk = pb.blocks();
        let m = pb.m();
        let mut row_knot = vec![usize::MAX; m];
        if nk == 1 {
            row_knot
                .iter_mut()
                .zip(kept)
                .filter(|(_, &k)| k)
                .for_each(|(r, _)| *r = 0);
        } else {
            // the distinct knots each kept row touches, in the order met (a row touching
            // more than three cannot be centred: `None`)
            let mut touched = vec![([0usize; 3], 0u8); m];
            for t in 0..pb.a.v.len() {
                let r = pb.a.i[t];
                if kept[r] {
                    let k = pb.a.j[t] % nk;
                    let (knots, len) = &mut touched[r];
                    if !knots[..*len as usize].contains(&k) {
                        if *len == 3 {
                            return None;
                        }
                        knots[*len as usize] = k;
                        *len += 1;
                    }
                }
            }
            for r in 0..m {
                if kept[r] {
                    let (knots, len) = &touched[r];
                    row_knot[r] = centre_knot(&knots[..*len as usize], nk)?;
                }
            }
        }
        let mut size = vec![0; nk];
        let mut var_local = vec![0; pb.nvar];
        for v in 0..pb.nvar {
            let k = v % nk;
            var_local[v] = size[k];
            size[k] += 1;
        }
        let mut row_local = vec![0; m];
        for r in 0..m {
            if row_knot[r] != usize::MAX {
                row_local[r] = size[row_knot[r]];
                size[row_knot[r]] += 1;
            }
        }
        let mut start = vec![0; nk];
        for k in 1..nk {
            start[k] = start[k - 1] + size[k - 1];
        }
        let var = (0..pb.nvar).map(|v| start[v % nk] + var_local[v]).collect();
        let row = (0..m)
            .map(|r| match row_knot[r] {
                usize::MAX => usize::MAX,
                k => start[k] + row_local[r],
            })
            .collect();
        Some(Layout { var, row, size })
    }
}

/// The knot a row touching `knots` belongs to: the one itself, the first of two neighbours,
/// the middle of three; `None` otherwise.
fn centre_knot(knots: &[usize], nk: usize) -> Option<usize> {
    let next = |k: usize| (k + 1) % nk;
    match *knots {
        [] => Some(0),
        [a] => Some(a),
        [a, b] if b == next(a) => Some(a),
        [a, b] if a == next(b) => Some(b),
        _ => knots.iter().copied().find(|&c| {
            let prev = (c + nk - 1) % nk;
            knots.iter().all(|&k| k == c || k == prev || k == next(c))
        }),
    }
}

/// A KKT matrix being assembled, with the precomputed places of each contribution.
pub(super) struct Kkt {
    pub(super) mat: BlockCyclic,
    /// The entries P and the kept rows give (summed in the order [`Kkt::assemble`] adds
    /// them: P's triplets, then A's): every assembly starts from them.
    base: Vec<f64>,
    /// The barrier rows' outer products: (place, mirror, vₐ·v_b, row).
    w_slots: Vec<(usize, Option<usize>, f64, usize)>,
    /// Diagonal places of the variables and of the kept rows.
    var_diag: Vec<usize>,
    row_diag: Vec<usize>,
    /// The places the barrier terms and ±δ change (each once, ascending): an assembly
    /// restores them from `base` (the matrix holds `base` everywhere else).
    touched: Vec<usize>,
}

impl Kkt {
    /// The places for problem `pb` with rows `kept` as equations and the others as barrier
    /// rows (when `barrier`).
    pub(super) fn new(
        pb: &Problem,
        lay: &Layout,
        kept: &[bool],
        barrier: bool,
    ) -> Result<Kkt, Failure> {
        let mat = BlockCyclic::new(lay.size.clone());
        let slots = |a: usize, b: usize| mat.slots(a, b).ok_or(Failure::NotBanded);
        let mut base = vec![0.0; mat.data.len()];
        let mut add = |(s, mirror): (usize, Option<usize>), v: f64| {
            base[s] += v;
            if let Some(m) = mirror {
                base[m] += v;
            }
        };
        for t in 0..pb.p.v.len() {
            add(slots(lay.var[pb.p.i[t]], lay.var[pb.p.j[t]])?, pb.p.v[t]);
        }
        for t in 0..pb.a.v.len() {
            let r = pb.a.i[t];
            if kept[r] {
                add(slots(lay.var[pb.a.j[t]], lay.row[r])?, pb.a.v[t]);
            }
        }
        // the barrier rows' entries, each row's in triplet order (as the equilibrated problem
        // holds them grouped; grouped here for another)
        let grouped_here;
        let rows = match pb.grouped {
            Some(g) => g,
            None if barrier => {
                grouped_here = Grouped::new(&pb.a, pb.a.v, pb.m(), pb.nvar, pb.n_eq);
                &grouped_here
            }
            None => &Grouped::default(),
        };
        let mut w_slots = Vec::new();
        for r in (0..pb.m()).filter(|&r| barrier && !kept[r]) {
            let entries = rows.row(r);
            for (ia, &(ca, va)) in entries.iter().enumerate() {
                for (ib, &(cb, vb)) in entries.iter().enumerate().skip(ia) {
                    let (s, mirror) = slots(lay.var[ca], lay.var[cb])?;
                    // two entries of one column: K(c, c) gets both orders of the pair
                    let coef = if ib > ia && ca == cb {
                        2.0 * va * vb
                    } else {
                        va * vb
                    };
                    w_slots.push((s, mirror, coef, r));
                }
            }
        }
        let var_diag: Vec<usize> = (0..pb.nvar)
            .map(|v| slots(lay.var[v], lay.var[v]).map(|s| s.0))
            .collect::<Result<_, _>>()?;
        let row_diag: Vec<usize> = (0..pb.m())
            .filter(|&r| kept[r])
            .map(|r| slots(lay.row[r], lay.row[r]).map(|s| s.0))
            .collect::<Result<_, _>>()?;
        // the places an assembly changes, each once and in storage order (marked, not sorted:
        // a min-time step has a few hundred thousand of them)
        let mut marked = vec![false; base.len()];
        w_slots
            .iter()
            .flat_map(|&(s, mirror, _, _)| std::iter::once(s).chain(mirror))
            .chain(var_diag.iter().copied())
            .chain(row_diag.iter().copied())
            .for_each(|t| marked[t] = true);
        let touched: Vec<usize> = (0..marked.len()).filter(|&t| marked[t]).collect();
        let mut mat = mat;
        mat.data.copy_from_slice(&base);
        Ok(Kkt {
            mat,
            base,
            w_slots,
            var_diag,
            row_diag,
            touched,
        })
    }

    /// K = [P + A_Iᵀ W A_I + δ_p I, A_Eᵀ; A_E, −δ_d I] for barrier weights `w` (per row),
    /// P and A those of the problem the places were made for.
    pub(super) fn assemble(&mut self, w: &[f64], delta: f64) {
        let data = &mut self.mat.data;
        for &t in &self.touched {
            data[t] = self.base[t];
        }
        for &(s, mirror, coef, r) in &self.w_slots {
            let v = coef * w[r];
            data[s] += v;
            if let Some(m) = mirror {
                data[m] += v;
            }
        }
        for &d in &self.var_diag {
            data[d] += delta;
        }
        for &d in &self.row_diag {
            data[d] -= delta;
        }
    }

    /// Solves the unregularised system (the assembled one less its ±δ) for `rhs` by the
    /// regularised factor and iterative refinement; the solution replaces `rhs`.
    pub(super) fn solve(
        &self,
        factor: &Factor,
        delta: f64,
        rhs: &mut [f64],
        work: &mut Work,
        steps: usize,
    ) {
        let n = rhs.len();
        work.b.clear();
        work.b.extend_from_slice(rhs);
        factor.solve(rhs);
        let scale = work
            .b
            .iter()
            .fold(0.0f64, |a, v| a.max(v.abs()))
            .max(1e-300);
        for _ in 0..steps {
            // r = b − (K_reg − Δ) x
            self.mat.mul(rhs, &mut work.r);
            let r = &mut work.r;
            for i in 0..n {
                r[i] = work.b[i] - r[i];
            }
            for &i in &work.var_unknowns {
                r[i] += delta * rhs[i];
            }
            for &i in &work.row_unknowns {
                r[i] -= delta * rhs[i];
            }
            let res = r.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            if res.is_nan() || res <= 1e-14 * scale {
                break;
            }
            factor.solve(r);
            for i in 0..n {
                rhs[i] += r[i];
            }
        }
    }
}

/// Scratch vectors of the refinement.
pub(super) struct Work {
    b: Vec<f64>,
    r: Vec<f64>,
    var_unknowns: Vec<usize>,
    row_unknowns: Vec<usize>,
}

impl Work {
    pub(super) fn new(lay: &Layout) -> Work {
        let n: usize = lay.size.iter().sum();
        Work {
            b: Vec::with_capacity(n),
            r: vec![0.0; n],
            var_unknowns: lay.var.clone(),
            row_unknowns: lay
                .row
                .iter()
                .copied()
                .filter(|&r| r != usize::MAX)
                .collect(),
        }
    }
}

/// The interior point's reduced system of one problem: the layout with every inequality row
/// eliminated, the matrix with its places and storage for its factor. Built once per
/// problem; the interior point and the polish reuse it (both solve with the regularised
/// factor alone and refine on their own full systems).
pub(super) struct Structure {
    pub(super) lay: Layout,
    pub(super) kkt: Kkt,
    pub(super) factor: Factor,
}

impl Structure {
    pub(super) fn new(pb: &Problem) -> Result<Structure, Failure> {
        let kept: Vec<bool> = (0..pb.m()).map(|r| r < pb.n_eq).collect();
        let lay = Layout::new(pb, &kept).ok_or(Failure::NotBanded)?;
        let kkt = Kkt::new(pb, &lay, &kept, true)?;
        let factor = Factor::for_matrix(&kkt.mat);
        Ok(Structure { lay, kkt, factor })
    }
}
