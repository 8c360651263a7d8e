//! Integration tests of mapzoo-pipeline, one binary, modules mirroring `src/`:
//! [`build`] (published sets from their maps, generated maps), [`regen`]
//! (regeneration of a built set) and [`settings`] (what a set records of its build);
//! [`support`] holds the shared helpers. Tests
//! on reference data are skipped without it, or fail under
//! `MAPZOO_REQUIRE_DATA=1`.

mod build;
mod regen;
mod settings;
mod support;
