//! Angle wrapping (radians). The four forms round differently and each
//! reproduces published bytes bit for bit, so all four are kept: TUM's
//! `normalize_psi` ([`normalize_psi`], [−π, π)), the Race Stack's yaw
//! ([`wrap_to_pi`], (−π, π]), the extraction's shifted remainder
//! ([`wrap_to_pi_shifted`], [−π, π)) and the synthetic generator's Euclidean
//! remainder ([`wrap_to_pi_euclid`], (−π, π]), which differs from
//! [`wrap_to_pi`] in the last bit for negative angles (−0.1 + 2π − 2π ≠ −0.1).

use std::f64::consts::{PI, TAU};

/// TUM `normalize_psi`: an angle into [−π, π), as sign(a)·(|a| mod 2π), then shifted by 2π.
pub fn normalize_psi(psi: f64) -> f64 {
    let two_pi = 2.0 * PI;
    let mut out = psi.signum() * (psi.abs() % two_pi);
    if psi == 0.0 {
        out = 0.0;
    }
    if out >= PI {
        out -= two_pi;
    } else if out < -PI {
        out += two_pi;
    }
    out
}

/// An angle into (−π, π] (the Race Stack's heading convention): a mod 2π (sign of a), then
/// shifted by 2π; an angle already in (−π, π] comes back unchanged.
pub fn wrap_to_pi(a: f64) -> f64 {
    let mut out = a % TAU;
    if out > PI {
        out -= TAU;
    } else if out <= -PI {
        out += TAU;
    }
    out
}

/// An angle into [−π, π) as (a + π) mod 2π − π (the extraction's centerline heading and
/// curvature; an angle in range may change in its last bit).
pub fn wrap_to_pi_shifted(a: f64) -> f64 {
    let v = (a + PI).rem_euclid(2.0 * PI) - PI;
    if v >= PI {
        v - 2.0 * PI
    } else {
        v
    }
}

/// An angle into (−π, π] as a mod⁺ 2π (Euclidean remainder, in [0, 2π)), minus 2π above π:
/// the synthetic generator's truth headings (a negative angle may change in its last bit).
pub fn wrap_to_pi_euclid(a: f64) -> f64 {
    let w = a.rem_euclid(TAU);
    if w > PI {
        w - TAU
    } else {
        w
    }
}

/// Whether two headings (radians) are less than 90° apart.
pub fn same_direction(a: f64, b: f64) -> bool {
    (a - b).cos() > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_2;

    #[test]
    fn ranges_and_ends() {
        assert_eq!(normalize_psi(PI), -PI);
        assert_eq!(normalize_psi(-PI), -PI);
        assert_eq!(normalize_psi(0.0), 0.0);
        assert_eq!(wrap_to_pi(PI), PI);
        assert_eq!(wrap_to_pi(-PI), PI);
        assert_eq!(wrap_to_pi_shifted(PI), -PI);
        for i in -400..=400 {
            let a = i as f64 * 0.0731;
            let forms = [
                (normalize_psi(a), false),
                (wrap_to_pi(a), true),
                (wrap_to_pi_shifted(a), false),
                (wrap_to_pi_euclid(a), true),
            ];
            for (w, upper_closed) in forms {
                if upper_closed {
                    assert!(w > -PI && w <= PI, "{a} -> {w}");
                } else {
                    assert!((-PI..PI).contains(&w), "{a} -> {w}");
                }
                let d = (w - a).rem_euclid(TAU);
                assert!(d < 1e-9 || TAU - d < 1e-9, "{a} -> {w}");
            }
            if a > -PI && a <= PI {
                assert_eq!(wrap_to_pi(a), a);
            }
        }
        assert_eq!(wrap_to_pi_euclid(-PI), PI);
        assert_eq!(wrap_to_pi(-0.1), -0.1);
        assert_ne!(
            wrap_to_pi_euclid(-0.1),
            -0.1,
            "the forms differ in the last bit"
        );
        assert!((wrap_to_pi_euclid(-0.1) + 0.1).abs() < 1e-15);
        assert!(same_direction(0.1, -0.2));
        assert!(!same_direction(0.0, FRAC_PI_2 + 0.01));
    }
}
