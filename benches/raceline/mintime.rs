//! Issue 14's target: the minimum-time line in under a second for f and for a 1,500-waypoint
//! MapZoo track (Austin) on one core. This measures stages 7–11 with all three lines
//! (`--lines iqp,sp,mintime`); the min-time step is this less `raceline_stage/<track>`.

use criterion::Criterion;
use mapzoo_raceline::{compute_lines, LineKind};

pub fn bench(c: &mut Criterion) {
    let kinds = [LineKind::Iqp, LineKind::Sp, LineKind::Mintime];
    for (name, centerline, walls, params) in super::tracks() {
        c.bench_function(&format!("raceline_mintime/{name}"), |b| {
            b.iter(|| compute_lines(&centerline, walls.as_ref(), &params, &kinds).expect("compute"))
        });
    }
}
