//! Numbers as messages show them: short, whatever the value (`1e300`, not three hundred
//! digits). Every crate words the values of bad input with [`format_number`].

/// A number as a message shows it: plain between 0.0001 and 10 million, in exponent form
/// outside (`1e300`, not three hundred digits), `NaN` and `inf` as themselves.
pub fn format_number(value: f64) -> String {
    let a = value.abs();
    if value == 0.0 || !value.is_finite() || (1e-4..1e7).contains(&a) {
        format!("{value}")
    } else {
        format!("{value:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_messages_stay_short() {
        assert_eq!(format_number(1e300), "1e300");
        assert_eq!(format_number(1e15), "1e15");
        assert_eq!(format_number(-1e-300), "-1e-300");
        assert_eq!(format_number(0.1), "0.1");
        assert_eq!(format_number(100.0), "100");
        assert_eq!(format_number(0.0), "0");
        assert_eq!(format_number(f64::NAN), "NaN");
        for e in -320..=308 {
            let v = 1.234_567_890_123_456_7 * 10f64.powi(e);
            assert!(format_number(v).len() <= 24, "{v}");
        }
    }
}
