//! Speed of the pictures (issue 7: a 1,500-waypoint track in < 200 ms).

#[path = "../../crates/mapzoo-render/tests/support/mod.rs"]
pub(crate) mod support;

use criterion::{criterion_group, Criterion};
use mapzoo_render::{render_gallery, render_track, GalleryOptions, RenderOptions};

fn one_track(c: &mut Criterion) {
    // 1,500 waypoints on each of the centerline, IQP and SP.
    let track = support::track(1500, false);
    let options = RenderOptions::default();
    c.bench_function("render_track 1500 wpnts, size 1000", |b| {
        b.iter(|| render_track(&track, &options).map(|r| r.image.len()))
    });
    let big = RenderOptions { size: 2000 };
    c.bench_function("render_track 1500 wpnts, size 2000", |b| {
        b.iter(|| render_track(&track, &big).map(|r| r.image.len()))
    });
}

fn gallery(c: &mut Criterion) {
    let tracks: Vec<_> = (0..9).map(|k| support::track(1500, k % 2 == 1)).collect();
    let options = GalleryOptions::default();
    c.bench_function("render_gallery 9 tracks, cell 320", |b| {
        b.iter(|| render_gallery(&tracks, &options).map(|i| i.len()))
    });
}

criterion_group!(benches, one_track, gallery);
