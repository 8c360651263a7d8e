//! Integration tests of mapzoo-extract, one binary: [`reference`] runs the
//! extraction on published maps against their published centerlines (skipped,
//! or failed under `MAPZOO_REQUIRE_DATA=1`, without the reference data);
//! [`synthetic`] runs it on generated maps with known truth; [`obstacles`]
//! checks the obstacles handed on as walls. The stage kernels'
//! own tests (and their property tests against the naive twins) are unit tests
//! beside them in `src/`.

mod border;
mod loops;
mod obstacles;
mod reference;
mod slam;
mod support;
mod synthetic;
