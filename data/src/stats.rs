//! Dataset statistics for `lexlog data stats`: case counts, the statute
//! tree, and the size of the linear form against SARA's Prolog.

use crate::dataset::{Dataset, Split};
use crate::ir::{Case, CaseKind};
use crate::linear;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct SplitCounts {
    pub split: String,
    pub entailment: usize,
    pub tax: usize,
    pub total: usize,
}

#[derive(Debug, Serialize)]
pub struct SizeSummary {
    pub median: f64,
    pub max: usize,
}

#[derive(Debug, Serialize)]
pub struct SizeStats {
    pub prolog_chars: SizeSummary,
    pub linear_chars: SizeSummary,
    pub prolog_tokens: SizeSummary,
    pub linear_tokens: SizeSummary,
    /// Median over cases of linear / Prolog length, in characters.
    pub median_char_ratio: f64,
    pub median_token_ratio: f64,
}

#[derive(Debug, Serialize)]
pub struct DatasetStats {
    pub dir: String,
    pub cases: usize,
    pub splits: Vec<SplitCounts>,
    pub statute_sections: usize,
    /// Nodes of the statute tree, its root included.
    pub statute_nodes: usize,
    pub statute_leaves: usize,
    pub ir_size: SizeStats,
    pub cases_with_groups: usize,
    pub corrections: Vec<String>,
}

/// SARA's facts and test without the boilerplate every case repeats
/// (`:- [statutes/prolog/init].`, `:- discontiguous …`, `:- halt.`) and
/// without comments.
pub fn prolog_core(case: &Case) -> String {
    case.prolog_facts
        .lines()
        .map(|l| l.split(" %").next().unwrap_or_default().trim_end())
        .filter(|l| {
            let t = l.trim();
            !(t.is_empty()
                || t.starts_with('%')
                || t.starts_with(":- [")
                || t.starts_with(":- discontiguous")
                || t == ":- halt.")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A simple lexical token count: runs of letters, digits and `_`, and each other
/// non-space character.
pub fn token_count(text: &str) -> usize {
    let mut n = 0;
    let mut in_word = false;
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            if !in_word {
                n += 1;
            }
            in_word = true;
        } else {
            in_word = false;
            if !c.is_whitespace() {
                n += 1;
            }
        }
    }
    n
}

fn summary(mut xs: Vec<usize>) -> SizeSummary {
    xs.sort_unstable();
    SizeSummary { median: median_f(&xs.iter().map(|&x| x as f64).collect::<Vec<_>>()), max: xs.last().copied().unwrap_or(0) }
}

fn median_f(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

pub fn dataset_stats(d: &Dataset) -> DatasetStats {
    let splits = [Some(Split::Train), Some(Split::Test), None]
        .into_iter()
        .map(|s| {
            let count = |k| d.cases_in(s).filter(|c| c.kind == k).count();
            let (entailment, tax) = (count(CaseKind::Entailment), count(CaseKind::Tax));
            SplitCounts { split: s.map_or("all", Split::as_str).to_string(), entailment, tax, total: entailment + tax }
        })
        .collect();
    let mut pc = Vec::new();
    let mut lc = Vec::new();
    let mut pt = Vec::new();
    let mut lt = Vec::new();
    let mut cr = Vec::new();
    let mut tr = Vec::new();
    for c in &d.cases {
        let prolog = prolog_core(c);
        let lin = linear::print(&linear::canonical_ids(&c.ir));
        let (p_chars, l_chars) = (prolog.chars().count(), lin.chars().count());
        let (p_toks, l_toks) = (token_count(&prolog), token_count(&lin));
        pc.push(p_chars);
        lc.push(l_chars);
        pt.push(p_toks);
        lt.push(l_toks);
        cr.push(l_chars as f64 / p_chars.max(1) as f64);
        tr.push(l_toks as f64 / p_toks.max(1) as f64);
    }
    DatasetStats {
        dir: d.dir.display().to_string(),
        cases: d.cases.len(),
        splits,
        statute_sections: d.statutes.children.len(),
        statute_nodes: d.statutes.node_count(),
        statute_leaves: d.statutes.leaf_count(),
        ir_size: SizeStats {
            prolog_chars: summary(pc),
            linear_chars: summary(lc),
            prolog_tokens: summary(pt),
            linear_tokens: summary(lt),
            median_char_ratio: median_f(&cr),
            median_token_ratio: median_f(&tr),
        },
        cases_with_groups: d
            .cases
            .iter()
            .filter(|c| c.ir.facts.iter().any(|f| matches!(f, crate::ir::Fact::ForEach(_))))
            .count(),
        corrections: d.cases.iter().flat_map(|c| c.corrections.clone()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::token_count;

    #[test]
    fn tokens_are_words_and_symbols() {
        assert_eq!(token_count("agent_(e1,alice)."), 7);
        assert_eq!(token_count("payment e1 agent=alice"), 5);
    }
}
