//! The SARA dataset on disk: where it is, its cases and its official split.

use crate::error::{DataError, Result};
use crate::ir::{Case, CaseKind};
use crate::sara::read_case_file;
use crate::statutes::{read_statutes, StatuteNode};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where SARA is read from: `$SARA_DIR`, else `../shared/sara` beside the
/// repository (the layout of a lexlog checkout next to the dataset).
pub fn sara_dir() -> PathBuf {
    match std::env::var_os("SARA_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/sara"),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    Train,
    Test,
}

impl Split {
    pub fn as_str(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Test => "test",
        }
    }
}

/// Reads every `*.pl` case file in `dir`, sorted by id.
pub fn read_cases(dir: &Path) -> Result<Vec<Case>> {
    read_each_case(dir)?.into_iter().collect()
}

/// As [`read_cases`], but one unreadable file does not stop the others:
/// each file's case or its error (naming the file and line).
pub fn read_each_case(dir: &Path) -> Result<Vec<Result<Case>>> {
    let entries = std::fs::read_dir(dir).map_err(|e| DataError::io(dir, e))?;
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| DataError::io(dir, e))?.path();
        if path.extension().is_some_and(|e| e == "pl") {
            paths.push(path);
        }
    }
    paths.sort();
    Ok(paths.iter().map(|p| read_case_file(p)).collect())
}

/// Reads a split file: one case id per line.
pub fn read_split(path: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(path).map_err(|e| DataError::io(path, e))?;
    Ok(text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect())
}

/// SARA: statutes, cases and the official split.
pub struct Dataset {
    pub dir: PathBuf,
    pub statutes: StatuteNode,
    pub cases: Vec<Case>,
    split_of: HashMap<String, Split>,
}

impl Dataset {
    /// Loads the dataset at [`sara_dir`].
    pub fn load_default() -> Result<Dataset> {
        Dataset::load(&sara_dir())
    }

    pub fn load(dir: &Path) -> Result<Dataset> {
        if !dir.join("cases").is_dir() {
            return Err(DataError::MissingDataset { path: dir.to_path_buf() });
        }
        let statutes = read_statutes(&dir.join("statutes/source"))?;
        let cases = read_cases(&dir.join("cases"))?;
        let mut split_of = HashMap::new();
        for split in [Split::Train, Split::Test] {
            let path = dir.join("splits").join(split.as_str());
            for id in read_split(&path)? {
                if !cases.iter().any(|c| c.id == id) {
                    return Err(DataError::Split { split: split.as_str().into(), message: format!("no case file for {id}") });
                }
                if split_of.insert(id.clone(), split).is_some() {
                    return Err(DataError::Split { split: split.as_str().into(), message: format!("{id} is in both splits") });
                }
            }
        }
        Ok(Dataset { dir: dir.to_path_buf(), statutes, cases, split_of })
    }

    pub fn split_of(&self, id: &str) -> Option<Split> {
        self.split_of.get(id).copied()
    }

    /// The cases of `split` (all cases for `None`).
    pub fn cases_in(&self, split: Option<Split>) -> impl Iterator<Item = &Case> {
        self.cases.iter().filter(move |c| split.is_none() || self.split_of(&c.id) == split)
    }

    pub fn case(&self, id: &str) -> Option<&Case> {
        self.cases.iter().find(|c| c.id == id)
    }

    /// Case counts by split and kind.
    pub fn counts(&self) -> Vec<(Option<Split>, CaseKind, usize)> {
        let mut out = Vec::new();
        for split in [Some(Split::Train), Some(Split::Test), None] {
            for kind in [CaseKind::Entailment, CaseKind::Tax] {
                out.push((split, kind, self.cases_in(split).filter(|c| c.kind == kind).count()));
            }
        }
        out
    }
}
