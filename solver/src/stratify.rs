//! Stratification over the predicate dependency graph.
//!
//! Nodes are predicates, and a rule adds an edge from each body predicate to
//! its head, marked negative under `\+` or inside an aggregate. Strongly
//! connected components (petgraph's `condensation`) in topological order
//! are the strata; a negative edge inside a component makes the program
//! non-stratifiable, reported with the cycle's predicates.

use crate::error::SolverError;
use crate::lang::Program;
use crate::program::{Literal, PredId};
use petgraph::algo::condensation;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{EdgeRef, Topo};
use std::collections::HashSet;

/// One stratum: predicates evaluated together, and the rules defining them.
#[derive(Debug, Clone)]
pub struct Stratum {
    pub preds: Vec<PredId>,
    pub rules: Vec<usize>,
    /// Whether some rule reads a predicate of this stratum (needs a fixpoint).
    pub recursive: bool,
}

/// The body predicates of `lits`, each with whether it is read negatively.
pub fn dependencies(lits: &[Literal], negative: bool, out: &mut Vec<(PredId, bool)>) {
    for l in lits {
        match l {
            Literal::Pos(a) => out.push((a.pred, negative)),
            Literal::Neg(a) => out.push((a.pred, true)),
            Literal::Agg { body, .. } => dependencies(body, true, out),
            Literal::Assign(..) | Literal::Test(..) | Literal::IsOpen { .. } => {}
        }
    }
}

/// Strata of `program` in evaluation order.
pub fn stratify(program: &Program) -> Result<Vec<Stratum>, SolverError> {
    let mut graph: DiGraph<PredId, bool> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..program.preds.len()).map(|p| graph.add_node(p)).collect();
    for rule in &program.rules {
        let mut deps = Vec::new();
        dependencies(&rule.body, false, &mut deps);
        for (p, neg) in deps {
            graph.add_edge(nodes[p], nodes[rule.head.pred], neg);
        }
    }
    let components = condensation(graph.clone(), true);
    let mut component_of = vec![0; program.preds.len()];
    for c in components.node_indices() {
        for &p in &components[c] {
            component_of[p] = c.index();
        }
    }
    for e in graph.edge_references() {
        let (a, b) = (graph[e.source()], graph[e.target()]);
        if *e.weight() && component_of[a] == component_of[b] {
            let cycle = components[NodeIndex::new(component_of[a])]
                .iter()
                .map(|&p| format!("{}/{}", program.preds[p].name, program.preds[p].arity))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(SolverError::NotStratifiable { cycle });
        }
    }
    let mut strata = Vec::new();
    let mut topo = Topo::new(&components);
    while let Some(c) = topo.next(&components) {
        let preds = components[c].clone();
        let set: HashSet<PredId> = preds.iter().copied().collect();
        let rules: Vec<usize> = (0..program.rules.len()).filter(|&r| set.contains(&program.rules[r].head.pred)).collect();
        let recursive = rules.iter().any(|&r| {
            let mut deps = Vec::new();
            dependencies(&program.rules[r].body, false, &mut deps);
            deps.iter().any(|(p, _)| set.contains(p))
        });
        strata.push(Stratum { preds, rules, recursive });
    }
    Ok(strata)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_through_recursion_is_rejected() {
        let mut p = Program::default();
        p.add_source("r.lex", "p(X) :- q(X), \\+ r(X).\nr(X) :- p(X).").unwrap();
        let err = stratify(&p).unwrap_err().to_string();
        assert!(err.contains("p/1") && err.contains("r/1"), "{err}");
    }

    #[test]
    fn strata_come_in_dependency_order() {
        let mut p = Program::default();
        p.add_source("r.lex", "c(X) :- b(X), \\+ a(X).\nb(X) :- e(X).\na(X) :- b(X), f(X).\n").unwrap();
        let strata = stratify(&p).unwrap();
        let pos = |name: &str| strata.iter().position(|s| s.preds.iter().any(|&q| p.preds[q].name == name)).unwrap();
        assert!(pos("b") < pos("a") && pos("a") < pos("c"));
    }
}
