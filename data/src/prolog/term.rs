use std::fmt;

/// A Prolog term. Variables are numbered per clause.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PTerm {
    Atom(String),
    Str(String),
    Int(i64),
    Var(u32),
    Compound(String, Vec<PTerm>),
    List(Vec<PTerm>),
}

impl PTerm {
    pub fn functor(&self) -> Option<(&str, usize)> {
        match self {
            PTerm::Atom(a) => Some((a, 0)),
            PTerm::Compound(f, args) => Some((f, args.len())),
            _ => None,
        }
    }

    pub fn args(&self) -> &[PTerm] {
        match self {
            PTerm::Compound(_, args) => args,
            _ => &[],
        }
    }

    /// Largest variable number plus one.
    pub fn var_bound(&self) -> u32 {
        match self {
            PTerm::Var(v) => v + 1,
            PTerm::Compound(_, args) | PTerm::List(args) => {
                args.iter().map(PTerm::var_bound).max().unwrap_or(0)
            }
            _ => 0,
        }
    }
}

impl fmt::Display for PTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PTerm::Atom(a) => write!(f, "{a}"),
            PTerm::Str(s) => write!(f, "{s:?}"),
            PTerm::Int(i) => write!(f, "{i}"),
            PTerm::Var(v) => write!(f, "_G{v}"),
            PTerm::Compound(name, args) => {
                write!(f, "{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
            PTerm::List(items) => {
                f.write_str("[")?;
                for (i, a) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str("]")
            }
        }
    }
}
