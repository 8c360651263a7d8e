//! Small numeric kernels with NumPy's exact semantics (`linspace`, `interp`),
//! so that the reference line and the velocity profile reproduce TUM's
//! Python implementation to the last digits (DESIGN §3 "Notes for parity");
//! they live in [`mapzoo_geom::numpy`].

pub use mapzoo_geom::numpy::{interp, interp1, linspace};
