//! Small test tracks shared by the workspace's tests (feature `testing`):
//! closed ovals as MapZoo centerlines with constant widths, so the tests of
//! the racing lines and of the CLI draw the same tracks from one place.

use mapzoo_format::Waypoint;

/// The closed curve x = a·cos t, y = b·sin t + wobble·sin 2t at `n` equal steps
/// of t from 0, metres (last point not repeated; counter-clockwise for a, b > 0).
pub fn oval_points(a: f64, b: f64, wobble: f64, n: usize) -> Vec<[f64; 2]> {
    (0..n)
        .map(|i| {
            let t = 2.0 * std::f64::consts::PI * i as f64 / n as f64;
            let y = if wobble == 0.0 {
                b * t.sin()
            } else {
                b * t.sin() + wobble * (2.0 * t).sin()
            };
            [a * t.cos(), y]
        })
        .collect()
}

/// A centerline along the dense closed polyline `dense`: resampled every
/// ≈`spacing` metres from point 0 (the Race Stack's `resample_closed`), ids
/// and `s_m = spacing·i`, `d_right = d_left = half_width` metres, the rest 0.
pub fn centerline_along(dense: &[[f64; 2]], spacing: f64, half_width: f64) -> Vec<Waypoint> {
    resample_closed(dense, spacing)
        .iter()
        .enumerate()
        .map(|(i, p)| Waypoint {
            id: i as i64,
            s_m: spacing * i as f64,
            x_m: p[0],
            y_m: p[1],
            d_right: half_width,
            d_left: half_width,
            ..Waypoint::default()
        })
        .collect()
}

/// The oval: an ellipse of semi-axes 8 m × 5 m (≈41 m lap), counter-clockwise,
/// waypoints every ≈0.1 m, `half_width` metres to each wall.
pub fn oval(half_width: f64) -> Vec<Waypoint> {
    centerline_along(&oval_points(8.0, 5.0, 0.0, 3000), 0.1, half_width)
}

/// The wobbly oval: semi-axes 9 m × 5 m with a 0.8 m second harmonic across
/// (≈46 m lap, no symmetry across x), counter-clockwise, waypoints every ≈0.1 m,
/// `half_width` metres to each wall.
pub fn wobbly_oval(half_width: f64) -> Vec<Waypoint> {
    centerline_along(&oval_points(9.0, 5.0, 0.8, 4000), 0.1, half_width)
}

/// The closed polyline linearly resampled at ⌈L / `step`⌉ equal steps from
/// vertex 0, closing point dropped; NumPy's `linspace` and `interp` on the
/// cumulative chord length, as the Race Stack's `resample_closed` (and the
/// raceline crate's) computes it, to the last bit.
fn resample_closed(pts: &[[f64; 2]], step: f64) -> Vec<[f64; 2]> {
    let n = pts.len();
    let mut cum = Vec::with_capacity(n + 1);
    cum.push(0.0);
    let mut acc = 0.0;
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        acc += (b[0] - a[0]).hypot(b[1] - a[1]);
        cum.push(acc);
    }
    let num = (acc / step).ceil() as usize + 1;
    let ds = acc / (num - 1) as f64;
    (0..num - 1)
        .map(|k| {
            // numpy.linspace: k·step + start (the last value, exactly `acc`, is dropped).
            let s = k as f64 * ds + 0.0;
            // numpy.interp on strictly increasing knots: xp[j] <= s < xp[j + 1].
            let j = cum.partition_point(|&c| c <= s) - 1;
            let at = |d: usize| {
                let (f0, f1) = (pts[j % n][d], pts[(j + 1) % n][d]);
                if cum[j] == s {
                    f0
                } else {
                    let slope = (f1 - f0) / (cum[j + 1] - cum[j]);
                    slope * (s - cum[j]) + f0
                }
            };
            [at(0), at(1)]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ovals_are_evenly_spaced_closed_loops() {
        for (cl, a) in [(oval(1.0), 8.0), (wobbly_oval(1.0), 9.0)] {
            let n = cl.len();
            for i in 0..n {
                let (a, b) = (&cl[i], &cl[(i + 1) % n]);
                let d = (b.x_m - a.x_m).hypot(b.y_m - a.y_m);
                assert!((d - 0.1).abs() < 2e-3, "step {i}: {d}");
            }
            assert_eq!([cl[0].x_m, cl[0].y_m], [a, 0.0]);
        }
    }
}
