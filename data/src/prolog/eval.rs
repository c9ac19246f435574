//! A small Prolog machine: depth-first resolution with a trail, the
//! built-ins SARA's case files use, and a step budget so every run ends.

use super::syntax::Clause;
use super::term::PTerm;
use std::collections::HashMap;
use std::rc::Rc;

/// Why evaluation stopped without finishing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvalError {
    /// A built-in needed a bound argument (Prolog's instantiation error).
    Instantiation(String),
    /// A goal names no clause and no built-in.
    Unknown(String),
    /// A built-in got an argument of the wrong type.
    Type(String),
    /// The step budget ran out.
    Budget(u64),
    /// Proofs nested deeper than the machine allows.
    Depth(usize),
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Instantiation(g) => write!(f, "argument of {g} is not bound"),
            EvalError::Unknown(g) => write!(f, "unknown predicate {g}"),
            EvalError::Type(m) => f.write_str(m),
            EvalError::Budget(n) => write!(f, "evaluation exceeded {n} steps"),
            EvalError::Depth(n) => write!(f, "proof nested deeper than {n} goals"),
        }
    }
}

type Res<T> = Result<T, EvalError>;
/// Each solution's unifications.
type Unifiers = Vec<Vec<(PTerm, PTerm)>>;

/// Goals still to prove, as a shared linked list.
type Cont = Option<Rc<ContNode>>;
struct ContNode {
    goal: PTerm,
    next: Cont,
}

fn push(goal: PTerm, next: Cont) -> Cont {
    Some(Rc::new(ContNode { goal, next }))
}

/// The clauses of a program, indexed by predicate.
pub struct Program<'a> {
    clauses: &'a [Clause],
    index: HashMap<(String, usize), Vec<usize>>,
}

impl<'a> Program<'a> {
    pub fn new(clauses: &'a [Clause]) -> Self {
        let mut index: HashMap<(String, usize), Vec<usize>> = HashMap::new();
        for (i, c) in clauses.iter().enumerate() {
            if let Some((name, arity)) = c.head.as_ref().and_then(PTerm::functor) {
                index.entry((name.to_string(), arity)).or_default().push(i);
            }
        }
        Program { clauses, index }
    }

    pub fn defines(&self, name: &str, arity: usize) -> bool {
        self.index.contains_key(&(name.to_string(), arity))
    }
}

/// Bindings, trail and step budget of one evaluation.
pub struct Machine<'p, 'a> {
    program: &'p Program<'a>,
    bindings: Vec<Option<PTerm>>,
    trail: Vec<u32>,
    steps: u64,
    budget: u64,
    depth: usize,
}

/// Deepest nesting of goals a proof may reach.
const MAX_DEPTH: usize = 250;
/// Most values `between/3` enumerates (SARA's ranges are a century of
/// years or a few hundred employees).
const MAX_BETWEEN: i64 = 100_000;

impl<'p, 'a> Machine<'p, 'a> {
    pub fn new(program: &'p Program<'a>, budget: u64) -> Self {
        Machine {
            program,
            bindings: Vec::new(),
            trail: Vec::new(),
            steps: 0,
            budget,
            depth: 0,
        }
    }

    /// Allocates `n` fresh variables; returns the offset of the first.
    pub fn fresh(&mut self, n: u32) -> u32 {
        let base = self.bindings.len() as u32;
        self.bindings.resize(self.bindings.len() + n as usize, None);
        base
    }

    pub fn bind(&mut self, var: u32, value: PTerm) {
        self.bindings[var as usize] = Some(value);
        self.trail.push(var);
    }

    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let v = self.trail.pop().expect("trail is longer than mark");
            self.bindings[v as usize] = None;
        }
    }

    fn deref(&self, t: &PTerm) -> PTerm {
        let mut t = t.clone();
        while let PTerm::Var(v) = t {
            match &self.bindings[v as usize] {
                Some(b) => t = b.clone(),
                None => return PTerm::Var(v),
            }
        }
        t
    }

    /// `t` with every bound variable replaced by its value.
    pub fn resolve(&self, t: &PTerm) -> PTerm {
        match self.deref(t) {
            PTerm::Compound(f, args) => {
                PTerm::Compound(f, args.iter().map(|a| self.resolve(a)).collect())
            }
            PTerm::List(items) => PTerm::List(items.iter().map(|a| self.resolve(a)).collect()),
            other => other,
        }
    }

    fn unify(&mut self, a: &PTerm, b: &PTerm) -> bool {
        let (a, b) = (self.deref(a), self.deref(b));
        match (&a, &b) {
            (PTerm::Var(x), PTerm::Var(y)) if x == y => true,
            (PTerm::Var(x), _) => {
                self.bind(*x, b);
                true
            }
            (_, PTerm::Var(y)) => {
                self.bind(*y, a);
                true
            }
            (PTerm::Compound(f, xs), PTerm::Compound(g, ys)) => {
                f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| self.unify(x, y))
            }
            (PTerm::List(xs), PTerm::List(ys)) => {
                xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| self.unify(x, y))
            }
            _ => a == b,
        }
    }

    /// Proves `goal` (whose variables are already allocated) and calls `k`
    /// on each solution; `k` returns `true` to stop.
    pub fn solve(&mut self, goal: PTerm, k: &mut dyn FnMut(&mut Self) -> Res<bool>) -> Res<bool> {
        self.run(push(goal, None), k)
    }

    fn run(&mut self, cont: Cont, k: &mut dyn FnMut(&mut Self) -> Res<bool>) -> Res<bool> {
        if self.depth >= MAX_DEPTH {
            return Err(EvalError::Depth(MAX_DEPTH));
        }
        self.depth += 1;
        let result = self.step(cont, k);
        self.depth -= 1;
        result
    }

    fn step(&mut self, cont: Cont, k: &mut dyn FnMut(&mut Self) -> Res<bool>) -> Res<bool> {
        let Some(node) = cont else {
            return k(self);
        };
        self.steps += 1;
        if self.steps > self.budget {
            return Err(EvalError::Budget(self.budget));
        }
        let goal = self.deref(&node.goal);
        let next = node.next.clone();
        let (name, args) = match &goal {
            PTerm::Atom(a) => (a.as_str(), &[][..]),
            PTerm::Compound(f, args) => (f.as_str(), args.as_slice()),
            PTerm::Var(_) => return Err(EvalError::Instantiation("call/1".into())),
            other => return Err(EvalError::Type(format!("{other} is not callable"))),
        };
        match (name, args) {
            ("true", []) => self.run(next, k),
            ("fail" | "false", []) => Ok(false),
            (",", [a, b]) => self.run(push(a.clone(), push(b.clone(), next)), k),
            (";", [c, e]) => {
                if let Some(("->", [cond, then])) = c.functor().map(|(f, _)| (f, c.args())) {
                    return self.if_then_else(cond, then, Some(e), next, k);
                }
                if self.run(push(c.clone(), next.clone()), k)? {
                    return Ok(true);
                }
                self.run(push(e.clone(), next), k)
            }
            ("->", [cond, then]) => self.if_then_else(cond, then, None, next, k),
            ("\\+", [g]) => {
                if self.provable(g)? {
                    Ok(false)
                } else {
                    self.run(next, k)
                }
            }
            _ => match self.builtin(name, args)? {
                Some(solutions) => {
                    for bindings in solutions {
                        let mark = self.trail.len();
                        if bindings.iter().all(|(a, b)| self.unify(a, b)) && self.run(next.clone(), k)? {
                            self.undo_to(mark);
                            return Ok(true);
                        }
                        self.undo_to(mark);
                    }
                    Ok(false)
                }
                None => self.call_user(&goal, name, args.len(), next, k),
            },
        }
    }

    fn provable(&mut self, g: &PTerm) -> Res<bool> {
        let mark = self.trail.len();
        let found = self.run(push(g.clone(), None), &mut |_| Ok(true))?;
        self.undo_to(mark);
        Ok(found)
    }

    fn if_then_else(
        &mut self,
        cond: &PTerm,
        then: &PTerm,
        els: Option<&PTerm>,
        next: Cont,
        k: &mut dyn FnMut(&mut Self) -> Res<bool>,
    ) -> Res<bool> {
        let mut found = false;
        let mut stop = false;
        let then_cont = push(then.clone(), next.clone());
        let mark = self.trail.len();
        self.run(push(cond.clone(), None), &mut |m| {
            found = true;
            stop = m.run(then_cont.clone(), k)?;
            Ok(true)
        })?;
        self.undo_to(mark);
        match (found, els) {
            (true, _) => Ok(stop),
            (false, Some(e)) => self.run(push(e.clone(), next), k),
            (false, None) => Ok(false),
        }
    }

    fn call_user(
        &mut self,
        goal: &PTerm,
        name: &str,
        arity: usize,
        next: Cont,
        k: &mut dyn FnMut(&mut Self) -> Res<bool>,
    ) -> Res<bool> {
        let program = self.program;
        let Some(ids) = program.index.get(&(name.to_string(), arity)) else {
            return Err(EvalError::Unknown(format!("{name}/{arity}")));
        };
        for &i in ids {
            let clause = &program.clauses[i];
            let base = self.fresh(clause.nvars());
            let head = offset(clause.head.as_ref().expect("indexed clauses have heads"), base);
            let mark = self.trail.len();
            if self.unify(&head, goal) {
                let cont = match &clause.body {
                    Some(b) => push(offset(b, base), next.clone()),
                    None => next.clone(),
                };
                if self.run(cont, k)? {
                    self.undo_to(mark);
                    return Ok(true);
                }
            }
            self.undo_to(mark);
        }
        Ok(false)
    }

    /// Built-ins, each returning the list of unifications of its
    /// solutions; `None` if `name/arity` is no built-in.
    fn builtin(&mut self, name: &str, args: &[PTerm]) -> Res<Option<Unifiers>> {
        let a: Vec<PTerm> = args.iter().map(|t| self.deref(t)).collect();
        let one = |x: PTerm, y: PTerm| Ok(Some(vec![vec![(x, y)]]));
        let none: Res<Option<Unifiers>> = Ok(Some(vec![]));
        let yes: Res<Option<Unifiers>> = Ok(Some(vec![vec![]]));
        let inst = || EvalError::Instantiation(format!("{name}/{}", args.len()));
        match (name, a.as_slice()) {
            ("between", [lo, hi, x]) => {
                let (lo, hi) = (int(lo).ok_or_else(inst)?, int(hi).ok_or_else(inst)?);
                match x {
                    PTerm::Var(_) if hi.saturating_sub(lo) >= MAX_BETWEEN => Err(EvalError::Type(format!(
                        "between({lo}, {hi}, _) would enumerate more than {MAX_BETWEEN} values"
                    ))),
                    PTerm::Var(_) => Ok(Some(
                        (lo..=hi).map(|i| vec![(x.clone(), PTerm::Int(i))]).collect(),
                    )),
                    PTerm::Int(i) if (lo..=hi).contains(i) => yes,
                    _ => none,
                }
            }
            ("member", [x, PTerm::List(items)]) => Ok(Some(
                items.iter().map(|i| vec![(x.clone(), i.clone())]).collect(),
            )),
            ("member", [_, PTerm::Var(_)]) => Err(inst()),
            ("atom_concat", [x, y, z]) => match (text(x), text(y), text(z)) {
                (Some(x), Some(y), _) => one(z.clone(), PTerm::Atom(x + &y)),
                (Some(x), None, Some(z)) => match z.strip_prefix(&x) {
                    Some(rest) => one(y.clone(), PTerm::Atom(rest.to_string())),
                    None => none,
                },
                (None, Some(y), Some(z)) => match z.strip_suffix(&y) {
                    Some(rest) => one(x.clone(), PTerm::Atom(rest.to_string())),
                    None => none,
                },
                (None, None, Some(z)) => Ok(Some(
                    z.char_indices()
                        .map(|(i, _)| i)
                        .chain([z.len()])
                        .map(|i| {
                            vec![
                                (x.clone(), PTerm::Atom(z[..i].to_string())),
                                (y.clone(), PTerm::Atom(z[i..].to_string())),
                            ]
                        })
                        .collect(),
                )),
                _ => Err(inst()),
            },
            ("split_string", [s, sep, pad, parts]) => {
                let (s, sep, pad) = (
                    text(s).ok_or_else(inst)?,
                    text(sep).ok_or_else(inst)?,
                    text(pad).ok_or_else(inst)?,
                );
                let pieces: Vec<PTerm> = s
                    .split(|c| sep.contains(c))
                    .map(|p| PTerm::Str(p.trim_matches(|c| pad.contains(c)).to_string()))
                    .collect();
                one(parts.clone(), PTerm::List(pieces))
            }
            ("atom_number", [atom, n]) => match text(atom) {
                Some(t) => match t.parse::<i64>() {
                    Ok(i) => one(n.clone(), PTerm::Int(i)),
                    Err(_) => none,
                },
                None => match n {
                    PTerm::Int(i) => one(atom.clone(), PTerm::Atom(i.to_string())),
                    _ => Err(inst()),
                },
            },
            ("first_day_year" | "last_day_year", [y, d]) => {
                let suffix = if name == "first_day_year" { "-01-01" } else { "-12-31" };
                match y {
                    PTerm::Int(y) => one(d.clone(), PTerm::Str(format!("{y:04}{suffix}"))),
                    PTerm::Var(_) => match text(d) {
                        Some(t) if t.len() == 10 && t.ends_with(suffix) => match t[..4].parse() {
                            Ok(year) => one(y.clone(), PTerm::Int(year)),
                            Err(_) => none,
                        },
                        Some(_) => none,
                        None => Err(inst()),
                    },
                    _ => Err(EvalError::Type(format!("{name}: {y} is not a year"))),
                }
            }
            ("is_before", [x, y]) => match (text(x), text(y)) {
                (Some(x), Some(y)) => if x < y { yes } else { none },
                _ => Err(inst()),
            },
            ("==", [x, y]) => if self.resolve(x) == self.resolve(y) { yes } else { none },
            ("\\==", [x, y]) => if self.resolve(x) != self.resolve(y) { yes } else { none },
            ("=", [x, y]) => one(x.clone(), y.clone()),
            ("var", [x]) => if matches!(x, PTerm::Var(_)) { yes } else { none },
            ("nonvar", [x]) => if matches!(x, PTerm::Var(_)) { none } else { yes },
            ("<" | ">" | "=<" | ">=" | "=:=" | "=\\=", [x, y]) => {
                let (x, y) = (self.arith(x)?, self.arith(y)?);
                let holds = match name {
                    "<" => x < y,
                    ">" => x > y,
                    "=<" => x <= y,
                    ">=" => x >= y,
                    "=:=" => x == y,
                    _ => x != y,
                };
                if holds { yes } else { none }
            }
            ("is", [x, e]) => {
                let v = self.arith(e)?;
                one(x.clone(), PTerm::Int(v))
            }
            _ => Ok(None),
        }
    }

    fn arith(&self, t: &PTerm) -> Res<i64> {
        match self.deref(t) {
            PTerm::Int(i) => Ok(i),
            PTerm::Var(_) => Err(EvalError::Instantiation("arithmetic".into())),
            PTerm::Compound(op, args) if args.len() == 2 => {
                let (x, y) = (self.arith(&args[0])?, self.arith(&args[1])?);
                let overflow = || EvalError::Type(format!("arithmetic overflow in {op}"));
                match op.as_str() {
                    "+" => x.checked_add(y).ok_or_else(overflow),
                    "-" => x.checked_sub(y).ok_or_else(overflow),
                    "*" => x.checked_mul(y).ok_or_else(overflow),
                    "//" | "/" if y != 0 => Ok(x.div_euclid(y)),
                    _ => Err(EvalError::Type(format!("unsupported arithmetic {op}"))),
                }
            }
            other => Err(EvalError::Type(format!("{other} is not a number"))),
        }
    }
}

fn int(t: &PTerm) -> Option<i64> {
    match t {
        PTerm::Int(i) => Some(*i),
        _ => None,
    }
}

fn text(t: &PTerm) -> Option<String> {
    match t {
        PTerm::Atom(s) | PTerm::Str(s) => Some(s.clone()),
        PTerm::Int(i) => Some(i.to_string()),
        _ => None,
    }
}

/// `t` with its clause-local variables moved to `base..`.
pub fn offset(t: &PTerm, base: u32) -> PTerm {
    match t {
        PTerm::Var(v) => PTerm::Var(v + base),
        PTerm::Compound(f, args) => {
            PTerm::Compound(f.clone(), args.iter().map(|a| offset(a, base)).collect())
        }
        PTerm::List(items) => PTerm::List(items.iter().map(|a| offset(a, base)).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prolog::parse_clauses;

    fn all(src: &str, goal: &str) -> Vec<String> {
        let clauses = parse_clauses(src, "t.pl", 1).unwrap();
        let program = Program::new(&clauses);
        let q = parse_clauses(&format!("q :- {goal}."), "q.pl", 1).unwrap();
        let mut m = Machine::new(&program, 100_000);
        let base = m.fresh(q[0].nvars());
        let body = offset(q[0].body.as_ref().unwrap(), base);
        let mut out = Vec::new();
        m.solve(body, &mut |m| {
            out.push((0..q[0].nvars()).map(|v| m.resolve(&PTerm::Var(base + v)).to_string()).collect::<Vec<_>>().join(" "));
            Ok(false)
        })
        .unwrap();
        out
    }

    #[test]
    fn generators_and_concat() {
        let src = "h(Y,E) :- between(2017,2018,Y), atom_concat('x_',Y,E).";
        assert_eq!(all(src, "h(Y,E)"), ["2017 x_2017", "2018 x_2018"]);
    }

    #[test]
    fn if_then_else_commits_to_the_condition() {
        let src = "d(Y,D) :- between(2016,2018,Y), ((Y==2017)->(D=\"sep\");first_day_year(Y,D)).";
        assert_eq!(all(src, "d(Y,D)"), ["2016 \"2016-01-01\"", "2017 \"sep\"", "2018 \"2018-01-01\""]);
    }

    #[test]
    fn split_string_and_negation() {
        assert_eq!(all("", "split_string(\"a_b_c\",\"_\",\"\",[X,Y,Z])"), ["\"a\" \"b\" \"c\""]);
        assert_eq!(all("p(1).", "between(1,2,X), \\+ p(X)"), ["2"]);
    }

    #[test]
    fn unbound_builtin_is_an_instantiation_error() {
        let clauses = parse_clauses("p(X) :- split_string(X,\"_\",\"\",_).", "t.pl", 1).unwrap();
        let program = Program::new(&clauses);
        let mut m = Machine::new(&program, 1000);
        let v = m.fresh(1);
        let err = m.solve(PTerm::Compound("p".into(), vec![PTerm::Var(v)]), &mut |_| Ok(false));
        assert!(matches!(err, Err(EvalError::Instantiation(_))));
    }

    #[test]
    fn a_huge_between_is_an_error_not_an_allocation() {
        let clauses = parse_clauses("p(Y) :- between(2017,99999999999999,Y).", "t.pl", 1).unwrap();
        let program = Program::new(&clauses);
        let mut m = Machine::new(&program, 1000);
        let v = m.fresh(1);
        let err = m.solve(PTerm::Compound("p".into(), vec![PTerm::Var(v)]), &mut |_| Ok(false)).unwrap_err();
        assert_eq!(err.to_string(), "between(2017, 99999999999999, _) would enumerate more than 100000 values");
        // A bound value is only tested, however wide the range.
        assert_eq!(all("", "between(1,99999999999999,5)"), [""]);
    }

    #[test]
    fn budget_stops_runaway_recursion() {
        let clauses = parse_clauses("p :- p.", "t.pl", 1).unwrap();
        let program = Program::new(&clauses);
        let mut m = Machine::new(&program, 100);
        assert_eq!(m.solve(PTerm::Atom("p".into()), &mut |_| Ok(false)), Err(EvalError::Budget(100)));
        let mut m = Machine::new(&program, u64::MAX);
        assert_eq!(m.solve(PTerm::Atom("p".into()), &mut |_| Ok(false)), Err(EvalError::Depth(MAX_DEPTH)));
    }
}
