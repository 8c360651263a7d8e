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
    let mut out = String::with_capacity(24);
    push_float_repr(&mut out, v);
    out
}

/// Appends [`float_repr`] of `v` to `out` without allocating.
pub fn push_float_repr(out: &mut String, v: f64) {
    if !v.is_finite() {
        out.push_str(if v.is_nan() {
            "nan"
        } else if v > 0.0 {
            "inf"
        } else {
            "-inf"
        });
        return;
    }
    // ryu gives the same shortest digits as Python; only the layout differs:
    // ryu writes 1e-5..1e-4 in fixed notation and exponents as `e16` / `e-7`.
    let mut buf = ryu::Buffer::new();
    let s = buf.format_finite(v);
    let (sign, body) = match s.strip_prefix('-') {
        Some(b) => ("-", b),
        None => ("", s),
    };
    if let Some((mantissa, exp)) = body.split_once('e') {
        let exp: i32 = exp.parse().unwrap_or(0);
        push_exponential(out, sign, mantissa, exp);
    } else if body.starts_with("0.0000") && v != 0.0 {
        // 0.0000ddd: |v| < 1e-4, exponential in Python.
        let digits = body[2..].trim_start_matches('0');
        let zeros = body.len() - 2 - digits.len();
        let mantissa = if digits.len() > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits.to_string()
        };
        push_exponential(out, sign, &mantissa, -(zeros as i32) - 1);
    } else {
        out.push_str(s);
    }
}

/// `sign mantissa e±XX` with at least two exponent digits; `mantissa` is `d` or `d.ddd`.
fn push_exponential(out: &mut String, sign: &str, mantissa: &str, exp: i32) {
    use std::fmt::Write as _;
    out.push_str(sign);
    out.push_str(mantissa.strip_suffix(".0").unwrap_or(mantissa));
    out.push('e');
    out.push(if exp < 0 { '-' } else { '+' });
    let _ = write!(out, "{:02}", exp.abs());
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
        let mut s = String::with_capacity(24);
        push_float_repr(&mut s, value);
        writer.write_all(s.as_bytes())
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
        // Keys are separated as array items are: `, ` on one line.
        self.begin_array_value(writer, first)
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
    Ok(String::from_utf8(buf)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
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
            (1.5e-5, "1.5e-05"),
            (9.999e-5, "9.999e-05"),
            (1.2e-7, "1.2e-07"),
            (-3e-100, "-3e-100"),
            (0.00012, "0.00012"),
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
