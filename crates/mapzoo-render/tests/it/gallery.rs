//! `render_gallery`: every track in its cell, one shared speed scale.

use mapzoo_render::{render_gallery, viridis, GalleryOptions, RenderError, Rgb, ARROW};

use crate::picture::N;
use crate::support;

#[test]
fn gallery_puts_every_track_in_its_cell() {
    let mut slow = support::track(N, false);
    slow.name = "slow".into();
    for w in slow.lines.iter_mut().flat_map(|l| l.waypoints.iter_mut()) {
        w.vx_mps -= 2.0;
    }
    let fast = support::track(N, true);
    let options = GalleryOptions {
        cell: 200,
        columns: Some(2),
    };
    let img = render_gallery(&[slow.clone(), fast.clone()], &options).unwrap();
    assert_eq!(
        img,
        render_gallery(&[slow.clone(), fast], &options).unwrap()
    );
    // One shared speed scale: the slow track's top speed is mid-scale, so
    // the brightest colour only appears in the right-hand cell.
    let half = img.width() / 2;
    let count = |x0: u32, x1: u32, c: Rgb| {
        img.enumerate_pixels()
            .filter(|(x, y, p)| *x >= x0 && *x < x1 && *y < img.height() - 60 && p.0 == c)
            .count()
    };
    assert_eq!(count(0, half, viridis(1.0)), 0);
    assert!(count(half, img.width(), viridis(1.0)) > 0);
    assert!(count(0, half, ARROW) > 0 && count(half, img.width(), ARROW) > 0);
    assert!(matches!(
        render_gallery(&[], &GalleryOptions::default()),
        Err(RenderError::NoTracks)
    ));
}
