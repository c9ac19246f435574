//! The statutes as a tree of sections and subsections, with ids in SARA's
//! style (`s7703_b_3`, `s1_a_i`). Nesting follows the source's indentation:
//! a label belongs to the nearest less-indented node above it.

use crate::error::{DataError, Result};
use serde::Serialize;
use std::path::Path;

#[derive(Debug, Clone, Serialize)]
pub struct StatuteNode {
    /// `s7703_b_3`; the root's id is `root`.
    pub id: String,
    /// `(b)`'s heading or first words, `Determination of marital status`, …
    pub text: String,
    pub children: Vec<StatuteNode>,
}

impl StatuteNode {
    pub fn node_count(&self) -> usize {
        1 + self.children.iter().map(StatuteNode::node_count).sum::<usize>()
    }
    pub fn leaf_count(&self) -> usize {
        if self.children.is_empty() {
            1
        } else {
            self.children.iter().map(StatuteNode::leaf_count).sum()
        }
    }
    pub fn find(&self, id: &str) -> Option<&StatuteNode> {
        if self.id == id {
            return Some(self);
        }
        self.children.iter().find_map(|c| c.find(id))
    }
    pub fn walk<'a>(&'a self, out: &mut Vec<&'a StatuteNode>) {
        out.push(self);
        for c in &self.children {
            c.walk(out);
        }
    }
}

/// Parses one section file (`§152. Dependent defined` then labelled
/// paragraphs).
pub fn parse_section(file: &str, source: &str) -> Result<StatuteNode> {
    let mut lines = source.lines().enumerate();
    let (title_line, title) = lines
        .by_ref()
        .find(|(_, l)| !l.trim().is_empty())
        .ok_or_else(|| DataError::Case { file: file.into(), message: "empty statute file".into() })?;
    let err = |line: usize, m: &str| DataError::Syntax { file: file.into(), line: line + 1, message: m.into() };
    let rest = title.trim().strip_prefix('§').ok_or_else(|| err(title_line, "expected `§N. Title`"))?;
    let (number, heading) = rest.split_once('.').ok_or_else(|| err(title_line, "expected `§N. Title`"))?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(title_line, "section number is not a number"));
    }
    let mut root = StatuteNode { id: format!("s{number}"), text: heading.trim().to_string(), children: vec![] };
    // Path of (indent, child index) from the section node to the open node.
    let mut path: Vec<(usize, usize)> = Vec::new();
    for (_, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let body = line.trim();
        let label = body
            .strip_prefix('(')
            .and_then(|r| r.split_once(')'))
            .filter(|(l, _)| !l.is_empty() && l.len() <= 5 && l.bytes().all(|b| b.is_ascii_alphanumeric()));
        match label {
            Some((label, text)) => {
                while path.last().is_some_and(|(i, _)| *i >= indent) {
                    path.pop();
                }
                let parent = node_at(&mut root, &path);
                parent.children.push(StatuteNode {
                    id: format!("{}_{label}", parent.id),
                    text: text.trim().to_string(),
                    children: vec![],
                });
                path.push((indent, parent.children.len() - 1));
            }
            None => {
                // Continuation text belongs to the nearest open node at or
                // above this indentation.
                while path.last().is_some_and(|(i, _)| *i > indent) {
                    path.pop();
                }
                let node = node_at(&mut root, &path);
                if !node.text.is_empty() {
                    node.text.push('\n');
                }
                node.text.push_str(body);
            }
        }
    }
    Ok(root)
}

fn node_at<'a>(root: &'a mut StatuteNode, path: &[(usize, usize)]) -> &'a mut StatuteNode {
    path.iter().fold(root, |node, (_, i)| &mut node.children[*i])
}

/// Reads every section file under `dir` (`statutes/source/`) into one tree
/// under a root, sections in numeric order.
pub fn read_statutes(dir: &Path) -> Result<StatuteNode> {
    let mut sections = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| DataError::io(dir, e))?;
    for entry in entries {
        let path = entry.map_err(|e| DataError::io(dir, e))?.path();
        if !path.is_file() {
            continue;
        }
        let source = std::fs::read_to_string(&path).map_err(|e| DataError::io(&path, e))?;
        sections.push(parse_section(&path.display().to_string(), &source)?);
    }
    sections.sort_by_key(|s| s.id[1..].parse::<u32>().unwrap_or(u32::MAX));
    Ok(StatuteNode { id: "root".into(), text: String::new(), children: sections })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_follows_indentation() {
        let src = "§1. Tax imposed\n\n(a) Married\n\nThere is\n\n    (1) every married\n\n    (i) 15% of\n\n(b) Heads\n";
        let s = parse_section("section1", src).unwrap();
        let ids: Vec<_> = {
            let mut v = Vec::new();
            s.walk(&mut v);
            v.into_iter().map(|n| n.id.clone()).collect()
        };
        assert_eq!(ids, ["s1", "s1_a", "s1_a_1", "s1_a_i", "s1_b"]);
        assert_eq!(s.leaf_count(), 3);
        assert!(s.find("s1_a").unwrap().text.contains("There is"));
    }

    #[test]
    fn a_file_without_a_title_is_an_error() {
        let err = parse_section("section9", "(a) x\n").unwrap_err();
        assert_eq!(err.to_string(), "section9:1: expected `§N. Title`");
    }
}
