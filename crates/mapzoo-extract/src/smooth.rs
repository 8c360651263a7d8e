//! Stage 4a, smoothing (DESIGN §3.4): a cubic Savitzky–Golay filter applied
//! circularly along the closed skeleton loop.
//!
//! The Race Stack filters the open sequence (SciPy `savgol_filter`, mode
//! "interp") and patches the first and last window with a second pass whose
//! seam lies half a lap away; for an even number of points that equals this
//! circular filter exactly (for an odd number its patch is shifted by one
//! sample). The smoothing weights of a cubic (and quadratic) fit over
//! 2m + 1 points are c_j = (3(3m² + 3m − 1) − 15j²) / ((2m − 1)(2m + 1)(2m + 3)),
//! so [`savgol_circular`] keeps running sums of x and j²·x and costs O(n)
//! whatever the window; [`savgol_circular_naive`] fits the cubic by least squares
//! at every point.

use mapzoo_format::OccupancyMap;

use crate::error::ExtractError;
use crate::skeleton::SkeletonLoop;
use crate::space::FreeSpace;

/// Stage 4's result: the smoothed loop in world coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct SmoothedLoop {
    /// Points of the loop, world metres, in the skeleton loop's order; closed implicitly.
    pub points: Vec<[f64; 2]>,
    /// Savitzky–Golay window used, points.
    pub window: usize,
}

/// Stage 4: smooths the skeleton loop in pixels (`smooth_loop` with the Race Stack's seam
/// patch) and converts it to metres. A smoothed point may move at most half the clearance
/// of its loop pixel (`clearance`: its distance to the free space's boundary, pixels).
pub fn smooth(
    map: &OccupancyMap,
    space: &FreeSpace,
    skeleton_loop: &SkeletonLoop,
    clearance: &[f64],
) -> Result<SmoothedLoop, ExtractError> {
    let pixels = &skeleton_loop.pixels;
    let limit: Vec<f64> = clearance.iter().map(|&d| 0.5 * d).collect();
    let (cols, rows): (Vec<f64>, Vec<f64>) = pixels
        .iter()
        .map(|&p| {
            let (c, r) = space.mask.col_row(p);
            (c as f64, r as f64)
        })
        .unzip();
    let Some((mut cols, mut rows, window)) = smooth_loop(&cols, &rows, &limit) else {
        return Err(ExtractError::NoLoop {
            why: format!(
                "the loop around the infield at {} is only {} pixels long; a track needs at least 5",
                space.map_point(map, pixels.first().copied().unwrap_or(0)),
                pixels.len()
            ),
        });
    };
    race_stack_seam(&mut cols, window);
    race_stack_seam(&mut rows, window);
    let points = cols
        .iter()
        .zip(&rows)
        .map(|(&c, &r)| {
            let (x, y) = map.pixel_to_world(c + space.col0 as f64, r + space.row0 as f64);
            [x, y]
        })
        .collect();
    Ok(SmoothedLoop { points, window })
}

/// Window length for a loop of `n` points (DESIGN §3.4): >2000 → ⌊n/200⌋·10+1, >1000 → 81, >500 → 41, else 21.
pub(crate) fn savgol_window(n: usize) -> usize {
    if n > 2000 {
        n / 200 * 10 + 1
    } else if n > 1000 {
        81
    } else if n > 500 {
        41
    } else {
        21
    }
}

/// The window actually used for `n` points: [`savgol_window`], shrunk to the largest odd
/// length ≤ n for tiny loops; `None` when n < 5 (a cubic needs 5 points to smooth).
pub(crate) fn effective_window(n: usize) -> Option<usize> {
    if n < 5 {
        return None;
    }
    let w = savgol_window(n);
    Some(if w <= n {
        w
    } else if n % 2 == 1 {
        n
    } else {
        n - 1
    })
}

/// The window `smooth_loop` never shrinks below: the rule's window for 1000 < n ≤ 2000.
pub(crate) const MIN_WINDOW: usize = 81;

/// Smooths a closed loop of pixel positions (`cols`, `rows`) with the window of
/// [`effective_window`]; while that window is wider than [`MIN_WINDOW`] and a smoothed point
/// lies farther than `limit[i]` pixels from its loop pixel, the window is halved (kept odd).
///
/// For loops over 2000 pixels the rule's window grows with the lap (about 5 %, ≈20 m on a
/// 450 m F1 circuit) and cuts hairpins by more than the track's half width. Windows up to 81
/// (all the Race Stack's maps) are kept as the rule says, for parity.
/// Returns the smoothed columns, rows and the window used; `None` for loops under 5 points.
pub(crate) fn smooth_loop(
    cols: &[f64],
    rows: &[f64],
    limit: &[f64],
) -> Option<(Vec<f64>, Vec<f64>, usize)> {
    let mut window = effective_window(cols.len())?;
    loop {
        let (sc, sr) = (savgol_circular(cols, window), savgol_circular(rows, window));
        let inside = (0..cols.len()).all(|i| (sc[i] - cols[i]).hypot(sr[i] - rows[i]) <= limit[i]);
        if inside || window <= MIN_WINDOW {
            return Some((sc, sr, window));
        }
        window = ((window / 2) | 1).max(MIN_WINDOW);
    }
}

/// The Race Stack's seam patch on circularly smoothed values `x` (window `window`): its
/// second pass, shifted by ⌊n/2⌋, lines up with the first only for even n; for odd n its
/// first and last `window` values are those of the preceding sample. Kept for parity.
pub(crate) fn race_stack_seam(x: &mut [f64], window: usize) {
    let n = x.len();
    if n.is_multiple_of(2) || n <= 2 * window {
        return;
    }
    let orig = x.to_vec();
    for i in (0..window).chain(n - window..n) {
        x[i] = orig[(i + n - 1) % n];
    }
}

/// Circular cubic Savitzky–Golay smoothing of `x` with odd window `window` ≤ x.len().
pub fn savgol_circular(x: &[f64], window: usize) -> Vec<f64> {
    let n = x.len();
    if n == 0 || window < 3 {
        return x.to_vec();
    }
    let m = (window / 2) as i64;
    let mf = m as f64;
    let den = (2.0 * mf - 1.0) * (2.0 * mf + 1.0) * (2.0 * mf + 3.0);
    let a = 3.0 * (3.0 * mf * mf + 3.0 * mf - 1.0) / den;
    let b = 15.0 / den;
    let at = |i: i64| x[i.rem_euclid(n as i64) as usize];
    // Sums over j = -m..=m of x[i+j], j·x[i+j], j²·x[i+j] around i.
    let sums = |i: i64| {
        let (mut s0, mut s1, mut s2) = (0.0, 0.0, 0.0);
        for j in -m..=m {
            let v = at(i + j);
            let jf = j as f64;
            s0 += v;
            s1 += jf * v;
            s2 += jf * jf * v;
        }
        (s0, s1, s2)
    };
    // Re-summed from scratch every RESYNC steps so rounding cannot drift.
    const RESYNC: usize = 256;
    let mut out = Vec::with_capacity(n);
    let (mut s0, mut s1, mut s2) = sums(0);
    for i in 0..n as i64 {
        if i > 0 {
            if (i as usize).is_multiple_of(RESYNC) {
                (s0, s1, s2) = sums(i);
            } else {
                // Slide the window from i-1 to i: drop x[i-1-m], add x[i+m], re-centre.
                let (old, new) = (at(i - 1 - m), at(i + m));
                let t0 = s0 - old + new;
                let t1 = s1 + mf * old + (mf + 1.0) * new;
                let t2 = s2 - mf * mf * old + (mf + 1.0) * (mf + 1.0) * new;
                s0 = t0;
                s1 = t1 - t0;
                s2 = t2 - 2.0 * t1 + t0;
            }
        }
        out.push(a * s0 - b * s2);
    }
    out
}

#[cfg(any(test, feature = "reference"))]
/// Reference twin of [`savgol_circular`]: least-squares cubic through each window, evaluated at its centre.
pub fn savgol_circular_naive(x: &[f64], window: usize) -> Vec<f64> {
    let n = x.len();
    let m = (window / 2) as i64;
    (0..n as i64)
        .map(|i| {
            // Normal equations of the fit y ≈ Σ_k p_k j^k, k = 0..3.
            let mut ata = [[0.0f64; 4]; 4];
            let mut aty = [0.0f64; 4];
            for j in -m..=m {
                let y = x[(i + j).rem_euclid(n as i64) as usize];
                let pw = [1.0, j as f64, (j * j) as f64, (j * j * j) as f64];
                for r in 0..4 {
                    aty[r] += pw[r] * y;
                    for c in 0..4 {
                        ata[r][c] += pw[r] * pw[c];
                    }
                }
            }
            solve4(ata, aty)[0]
        })
        .collect()
}

/// Solves the 4×4 system a·x = b (Gauss–Jordan elimination, partial pivoting).
#[cfg(any(test, feature = "reference"))]
fn solve4(mut a: [[f64; 4]; 4], mut b: [f64; 4]) -> [f64; 4] {
    for col in 0..4 {
        let piv = (col..4)
            .max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))
            .unwrap_or(col);
        a.swap(col, piv);
        b.swap(col, piv);
        for r in 0..4 {
            if r != col && a[col][col] != 0.0 {
                let f = a[r][col] / a[col][col];
                let pivot = a[col];
                for (x, p) in a[r].iter_mut().zip(pivot) {
                    *x -= f * p;
                }
                b[r] -= f * b[col];
            }
        }
    }
    [
        b[0] / a[0][0],
        b[1] / a[1][1],
        b[2] / a[2][2],
        b[3] / a[3][3],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn window_rule() {
        assert_eq!(savgol_window(400), 21);
        assert_eq!(savgol_window(501), 41);
        assert_eq!(savgol_window(1001), 81);
        assert_eq!(savgol_window(2000), 81);
        assert_eq!(savgol_window(2001), 101);
        assert_eq!(savgol_window(4399), 211);
        assert_eq!(effective_window(10), Some(9));
        assert_eq!(effective_window(4), None);
    }

    #[test]
    fn seam_patch_only_for_odd_lengths() {
        let mut even: Vec<f64> = (0..50).map(|i| i as f64).collect();
        race_stack_seam(&mut even, 5);
        assert_eq!(even[0], 0.0);
        let mut odd: Vec<f64> = (0..51).map(|i| i as f64).collect();
        race_stack_seam(&mut odd, 5);
        assert_eq!(&odd[..6], &[50.0, 0.0, 1.0, 2.0, 3.0, 5.0]);
        assert_eq!(&odd[45..], &[45.0, 45.0, 46.0, 47.0, 48.0, 49.0]);
    }

    #[test]
    fn keeps_cubics_exactly_away_from_the_seam() {
        // A cubic in the index is reproduced wherever the window does not wrap.
        let x: Vec<f64> = (0..60)
            .map(|i| {
                let t = i as f64;
                0.01 * t * t * t - 0.3 * t * t + 2.0 * t + 5.0
            })
            .collect();
        let y = savgol_circular(&x, 11);
        for i in 5..55 {
            assert!((y[i] - x[i]).abs() < 1e-7, "{i}: {} vs {}", y[i], x[i]);
        }
    }

    proptest! {
        #[test]
        fn fast_matches_naive(x in proptest::collection::vec(-1000.0f64..1000.0, 5..700), half in 2usize..40) {
            let w = (2 * half + 1).min(if x.len() % 2 == 1 { x.len() } else { x.len() - 1 }).max(5);
            let a = savgol_circular(&x, w);
            let b = savgol_circular_naive(&x, w);
            for (p, q) in a.iter().zip(&b) {
                prop_assert!((p - q).abs() < 1e-7, "{} vs {}", p, q);
            }
        }
    }
}
