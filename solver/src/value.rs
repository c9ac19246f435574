//! Values of the Datalog engine: interned names, integers, dates, and the
//! two non-ground forms SARA's facts carry (an open argument, a date window).

use chrono::NaiveDate;
use std::collections::HashMap;
use std::fmt;

/// An interned name or text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// One value in a tuple. `Copy`, so joins never allocate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Val {
    Sym(Sym),
    Int(i64),
    Date(NaiveDate),
    /// An interned list of values.
    List(u32),
    /// An argument left open: it matches any value.
    Any,
    /// Any date strictly between the bounds, or none.
    Window(NaiveDate, NaiveDate),
}

impl Val {
    /// Whether a tuple's `self` can stand where `other` is asked: equal, or
    /// either is open, or a window holds the date.
    #[inline]
    pub fn compatible(self, other: Val) -> bool {
        match (self, other) {
            (a, b) if a == b => true,
            (Val::Any, _) | (_, Val::Any) => true,
            (Val::Window(lo, hi), Val::Date(d)) | (Val::Date(d), Val::Window(lo, hi)) => lo < d && d < hi,
            (Val::Window(..), Val::Window(..)) => true,
            _ => false,
        }
    }

    /// Open values cannot be hashed into an index bucket.
    #[inline]
    pub fn is_open(self) -> bool {
        matches!(self, Val::Any | Val::Window(..))
    }

    pub fn as_int(self) -> Option<i64> {
        match self {
            Val::Int(i) => Some(i),
            _ => None,
        }
    }

    pub fn as_date(self) -> Option<NaiveDate> {
        match self {
            Val::Date(d) => Some(d),
            _ => None,
        }
    }
}

/// Interner for names, texts and lists.
#[derive(Debug, Default, Clone)]
pub struct Symbols {
    names: Vec<String>,
    index: HashMap<String, Sym>,
    lists: Vec<Vec<Val>>,
    list_index: HashMap<Vec<Val>, u32>,
}

impl Symbols {
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&sym) = self.index.get(s) {
            return sym;
        }
        let sym = Sym(self.names.len() as u32);
        self.names.push(s.to_string());
        self.index.insert(s.to_string(), sym);
        sym
    }

    pub fn get(&self, s: &str) -> Option<Sym> {
        self.index.get(s).copied()
    }

    pub fn name(&self, sym: Sym) -> &str {
        &self.names[sym.0 as usize]
    }

    pub fn list(&mut self, items: Vec<Val>) -> Val {
        if let Some(&i) = self.list_index.get(&items) {
            return Val::List(i);
        }
        let i = self.lists.len() as u32;
        self.lists.push(items.clone());
        self.list_index.insert(items, i);
        Val::List(i)
    }

    pub fn list_items(&self, i: u32) -> &[Val] {
        &self.lists[i as usize]
    }

    /// A value for display.
    pub fn show(&self, v: Val) -> String {
        Shown(self, v).to_string()
    }
}

struct Shown<'a>(&'a Symbols, Val);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Val::Sym(s) => f.write_str(self.0.name(s)),
            Val::Int(i) => write!(f, "{i}"),
            Val::Date(d) => write!(f, "{}", d.format("%Y-%m-%d")),
            Val::List(i) => {
                f.write_str("[")?;
                for (k, v) in self.0.list_items(i).iter().enumerate() {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", Shown(self.0, *v))?;
                }
                f.write_str("]")
            }
            Val::Any => f.write_str("_"),
            Val::Window(a, b) => write!(f, "within({},{})", a.format("%Y-%m-%d"), b.format("%Y-%m-%d")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_values_match_anything_they_allow() {
        let d = |m, day| NaiveDate::from_ymd_opt(2017, m, day).unwrap();
        let w = Val::Window(d(1, 1), d(3, 1));
        assert!(w.compatible(Val::Date(d(2, 1))));
        assert!(!w.compatible(Val::Date(d(3, 1))));
        assert!(Val::Any.compatible(Val::Int(3)));
        assert!(!Val::Int(2).compatible(Val::Int(3)));
    }
}
