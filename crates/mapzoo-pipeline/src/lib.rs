//! The whole pipeline: configuration, stages wired map → file set, batches.
