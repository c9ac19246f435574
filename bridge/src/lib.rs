//! Joins the parser and the solver: solver-checked reranking of beams and
//! the joint text-to-answer pipeline.
