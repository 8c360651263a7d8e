//! Integration tests of mapzoo-synth, one binary, the generator against its
//! spec; the modules mirror `src/`.

mod clutter;
mod frame;
mod generate;
mod options;
mod output;
mod place;
mod raster;
mod support;
mod track;
