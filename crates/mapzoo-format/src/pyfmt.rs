//! Python's number and JSON text conventions, so that files written here are
//! byte-identical to the ones the Race Stack's Python writes (DESIGN §2.3, §2.4).
//!
//! Python's `repr(float)` and Rust's `{:e}` both print the shortest digit string
//! that reads back to the same double; only the layout differs (`1e-05` vs `1e-5`,
//! `1.0` vs `1`), which [`float_repr`] converts.

use std::io;

/// `repr(v)` of a Python float: shortest round-trip digits, fixed notation for
/// 1e-4 ≤ |v| < 1e16 (always with a `.`), else `d.ddde±XX`. Non-finite values
/// give Python's `nan`, `inf`, `-inf`.
pub fn float_repr(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let sci = format!("{v:e}");
    let (mantissa, exp) = match sci.split_once('e') {
        Some(parts) => parts,
        None => return sci,
    };
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let digits = if digits.is_empty() {
        "0".to_string()
    } else {
        digits
    };
    // Position of the decimal point relative to the digit string.
    let decpt = exp + 1;
    let mut out = String::with_capacity(digits.len() + 8);
    out.push_str(sign);
    if v == 0.0 {
        out.push_str("0.0");
        return out;
    }
    if (-4 < decpt) && (decpt <= 16) {
        let n = digits.len() as i32;
        if decpt <= 0 {
            out.push_str("0.");
            for _ in 0..(-decpt) {
                out.push('0');
            }
            out.push_str(&digits);
        } else if decpt >= n {
            out.push_str(&digits);
            for _ in 0..(decpt - n) {
                out.push('0');
            }
            out.push_str(".0");
        } else {
            out.push_str(&digits[..decpt as usize]);
            out.push('.');
            out.push_str(&digits[decpt as usize..]);
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.abs()));
    }
    out
}

/// A `serde_json` formatter that writes what Python's `json.dumps(obj)` writes
/// with its defaults: `", "` and `": "` separators, no newlines, floats as
/// `repr`, non-ASCII escaped as `\uXXXX`. `serde_json` turns non-finite
/// floats into `null` before they reach the formatter, so writers check
/// finiteness themselves (Python would write the non-standard `NaN`).
#[derive(Debug, Default, Clone, Copy)]
pub struct PyJsonFormatter;

impl serde_json::ser::Formatter for PyJsonFormatter {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(float_repr(value).as_bytes())
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        self.write_f64(writer, value as f64)
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if fragment.is_ascii() {
            return writer.write_all(fragment.as_bytes());
        }
        let mut units = [0u16; 2];
        for c in fragment.chars() {
            if c.is_ascii() {
                writer.write_all(&[c as u8])?;
            } else {
                for u in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{:04x}", u)?;
                }
            }
        }
        Ok(())
    }
}

/// `json.dumps(value)` of any serialisable value, as Python writes it.
pub fn to_py_json_string<T: serde::Serialize + ?Sized>(
    value: &T,
) -> std::result::Result<String, serde_json::Error> {
    let mut buf = Vec::with_capacity(1 << 16);
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, PyJsonFormatter);
    value.serialize(&mut ser)?;
    // The formatter only ever writes ASCII.
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_repr_matches_python() {
        // Expected strings are Python 3's repr() of the same doubles.
        let cases: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (0.05, "0.05"),
            (0.1, "0.1"),
            (0.30000000000000004, "0.30000000000000004"),
            (1e-4, "0.0001"),
            (1e-5, "1e-05"),
            (-4.263433219131585e-05, "-4.263433219131585e-05"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (1.2345678901234568e17, "1.2345678901234568e+17"),
            (123.456, "123.456"),
            (-22.778604316253958, "-22.778604316253958"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
        ];
        for (v, want) in cases {
            assert_eq!(float_repr(*v), *want, "repr of {v:e}");
        }
    }

    #[test]
    fn json_layout_matches_python() {
        let v = serde_json::json!({"a": [1, 2.5, "é"], "b": {"c": true, "d": null}});
        assert_eq!(
            to_py_json_string(&v).unwrap(),
            r#"{"a": [1, 2.5, "\u00e9"], "b": {"c": true, "d": null}}"#
        );
    }
}
