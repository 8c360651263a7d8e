//! Integration tests of mapzoo-pipeline, one binary, modules mirroring `src/`:
//! [`build`] (published sets from their maps, generated maps), [`regen`]
//! (regeneration of a built set) and [`settings`] (what a set records of its build);
//! [`obstacles`] (obstacles as walls, what a too-narrow failure names); [`support`]
//! holds the shared helpers. Tests
//! on reference data are skipped without it, or fail under
//! `MAPZOO_REQUIRE_DATA=1`.

mod bounds;
mod build;
mod no_panic;
mod obstacles;
mod regen;
mod settings;
mod support;
