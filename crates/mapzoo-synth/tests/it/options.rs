//! Option validation: bad options are named errors.

use mapzoo_synth::{generate, CenterlineSpec, SynthError, SynthOptions, WidthSpec};

#[test]
fn bad_options_are_named_errors() {
    let cases: Vec<(SynthOptions, &str)> = vec![
        (
            SynthOptions {
                resolution: -0.1,
                ..SynthOptions::default()
            },
            "resolution",
        ),
        (
            SynthOptions {
                noise: 2.0,
                ..SynthOptions::default()
            },
            "noise",
        ),
        (
            SynthOptions {
                centerline: CenterlineSpec::Points {
                    points: vec![[0.0, 0.0], [1.0, 0.0]],
                    widths: None,
                },
                ..SynthOptions::default()
            },
            "centerline.points",
        ),
        (
            SynthOptions {
                centerline: CenterlineSpec::Points {
                    points: vec![[0.0, 0.0], [1.0, 0.0], [f64::NAN, 1.0]],
                    widths: None,
                },
                ..SynthOptions::default()
            },
            "centerline.points",
        ),
        (
            SynthOptions {
                width: WidthSpec::Smooth { min: 3.0, max: 2.0 },
                ..SynthOptions::default()
            },
            "width",
        ),
    ];
    for (o, field) in cases {
        match generate(&o) {
            Err(e @ SynthError::Option { .. }) => {
                assert!(e.to_string().contains(field), "{e}")
            }
            other => panic!("expected an error naming {field}, got {other:?}"),
        }
    }
    // A lap too short for its width cannot be drawn without touching itself.
    let o = SynthOptions {
        centerline: CenterlineSpec::Random {
            lap_length: Some(6.0),
        },
        ..SynthOptions::default()
    };
    assert!(generate(&o).is_err());
    // So large an image is refused before any allocation.
    let o = SynthOptions {
        resolution: 0.0005,
        ..SynthOptions::default()
    };
    assert!(matches!(generate(&o), Err(SynthError::TooLarge { .. })));
}
