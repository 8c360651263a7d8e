//! Stage 8: one sparse curvature QP solve on the prepped reference line.

use criterion::Criterion;
use mapzoo_raceline::reference::CurvatureQp;
use mapzoo_raceline::{distance_scaling, prep, reftrack_from_waypoints, ClosedSpline};

pub fn bench(c: &mut Criterion) {
    for (name, centerline, _, params) in super::tracks() {
        let reference = prep(&reftrack_from_waypoints(&centerline), &params).expect("prep");
        let scaling = distance_scaling(&reference.xy);
        let normals = ClosedSpline::through(&reference.xy, Some(&scaling))
            .expect("spline")
            .normals();
        let qp = CurvatureQp {
            reftrack: &reference,
            normals: &normals,
            scaling: &scaling,
            kappa_bound: params.curvlim,
            safety_width: params.safety_width,
        };
        c.bench_function(&format!("iqp_solve/{name}"), |b| {
            b.iter(|| qp.solve(1).expect("qp"))
        });
    }
}
