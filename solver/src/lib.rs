//! The symbolic half of lexlog: statute rules, a Datalog engine and an
//! e-graph over the case IR.
