//! The image frame: an exact image size centres the track.

use mapzoo_synth::{generate, SynthError, FREE};

use crate::support::{opts, px};

#[test]
fn exact_image_size_centres_the_track() {
    let mut o = opts(12);
    o.image_size = Some([700, 500]);
    let map = generate(&o).expect("generate");
    assert_eq!((map.width, map.height), (700, 500));
    let p0 = map.truth.centerline[0];
    let (c, r) = px(&map, p0.x, p0.y);
    assert_eq!(map.pixel(c, r), Some(FREE));
    o.image_size = Some([100, 100]);
    assert!(matches!(generate(&o), Err(SynthError::DoesNotFit { .. })));
}
