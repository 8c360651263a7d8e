//! Pictures of track sets: one track, or a gallery of many.
