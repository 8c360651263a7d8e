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

/// A path as a message shows it: as it is, or quoted with escapes (`"a\nb.png"`) when it
/// holds a control character, so a newline in a file name cannot break a message in two.
pub fn shown_path(path: &std::path::Path) -> String {
    let text = path.display().to_string();
    if text.chars().any(char::is_control) {
        format!("{text:?}")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_with_a_control_character_is_escaped() {
        use std::path::Path;
        assert_eq!(shown_path(Path::new("maps/a b.png")), "maps/a b.png");
        assert_eq!(shown_path(Path::new("maps/a\nb.png")), "\"maps/a\\nb.png\"");
        assert!(!shown_path(Path::new("x\ty\r")).contains(['\t', '\r']));
    }

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
