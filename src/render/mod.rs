//! Backends: each draws a [`crate::doc::Document`] and knows nothing of mancala.
pub mod pdf;
pub mod svg;
