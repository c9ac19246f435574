//! Tokenizer and operator-precedence reader for the Prolog subset.

use super::term::PTerm;
use crate::error::{DataError, Result};

/// A clause `head :- body.`, a fact (`body: None`) or a directive
/// (`:- body.`, with `head: None`).
#[derive(Debug, Clone, PartialEq)]
pub struct Clause {
    pub head: Option<PTerm>,
    pub body: Option<PTerm>,
    /// Line of the clause's first token in its file (1-based).
    pub line: usize,
    /// Source names of the clause's variables, indexed by number.
    pub var_names: Vec<String>,
}

impl Clause {
    pub fn nvars(&self) -> u32 {
        self.var_names.len() as u32
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Name(String),
    Quoted(String),
    Var(String),
    Str(String),
    Int(i64),
    Punct(char),
    /// `(` right after a name: the name is a functor (`f(x)`, not `f (x)`).
    FunctorOpen,
    End,
}

struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: usize,
    file: &'a str,
}

const SYMBOL_CHARS: &[u8] = b"+-*/\\^<>=~:.?@#&$";

impl<'a> Lexer<'a> {
    fn err(&self, line: usize, message: impl Into<String>) -> DataError {
        DataError::Syntax {
            file: self.file.to_string(),
            line,
            message: message.into(),
        }
    }

    /// The character at `pos`; the source is UTF-8.
    fn char_at(&self, pos: usize) -> Option<char> {
        let end = (pos + 4).min(self.src.len());
        (pos + 1..=end).find_map(|e| std::str::from_utf8(&self.src[pos..e]).ok()).and_then(|s| s.chars().next())
    }

    /// The length in bytes of a name's or variable's character at `pos`:
    /// a letter or digit of any script, or `_`.
    fn word_char_len(&self, pos: usize) -> Option<usize> {
        match self.src.get(pos)? {
            b if b.is_ascii_alphanumeric() || *b == b'_' => Some(1),
            b if b.is_ascii() => None,
            _ => self.char_at(pos).filter(|c| c.is_alphanumeric()).map(char::len_utf8),
        }
    }

    fn skip_layout(&mut self) -> Result<()> {
        while self.pos < self.src.len() {
            let c = self.src[self.pos];
            if c == b'\n' {
                self.line += 1;
                self.pos += 1;
            } else if c.is_ascii_whitespace() {
                self.pos += 1;
            } else if c == b'%' {
                while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else if c == b'/' && self.src.get(self.pos + 1) == Some(&b'*') {
                let start = self.line;
                self.pos += 2;
                loop {
                    match self.src.get(self.pos) {
                        None => return Err(self.err(start, "unterminated /* comment")),
                        Some(b'*') if self.src.get(self.pos + 1) == Some(&b'/') => {
                            self.pos += 2;
                            break;
                        }
                        Some(b'\n') => self.line += 1,
                        _ => {}
                    }
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
        Ok(())
    }

    fn quoted(&mut self, quote: u8) -> Result<String> {
        let start = self.line;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            match self.src.get(self.pos) {
                None | Some(b'\n') => return Err(self.err(start, "unterminated quoted text")),
                Some(&c) if c == quote => {
                    if self.src.get(self.pos + 1) == Some(&quote) {
                        out.push(quote);
                        self.pos += 2;
                    } else {
                        self.pos += 1;
                        break;
                    }
                }
                Some(b'\\') => {
                    let esc = self.src.get(self.pos + 1).copied();
                    out.push(match esc {
                        Some(b'n') => b'\n',
                        Some(b't') => b'\t',
                        Some(c) => c,
                        None => return Err(self.err(start, "unterminated escape")),
                    });
                    self.pos += 2;
                }
                Some(&c) => {
                    out.push(c);
                    self.pos += 1;
                }
            }
        }
        String::from_utf8(out).map_err(|_| self.err(start, "quoted text is not UTF-8"))
    }

    /// The next token and its line, or `None` at the end of input.
    fn next(&mut self) -> Result<Option<(Tok, usize)>> {
        self.skip_layout()?;
        let Some(&c) = self.src.get(self.pos) else {
            return Ok(None);
        };
        let line = self.line;
        let start = self.pos;
        let tok = if c.is_ascii_digit() {
            while self.src.get(self.pos).is_some_and(u8::is_ascii_digit) {
                self.pos += 1;
            }
            let whole = self.pos;
            if self.src.get(self.pos) == Some(&b'.')
                && self.src.get(self.pos + 1).is_some_and(u8::is_ascii_digit)
            {
                // A fraction of zeros (`33200.00`) is a whole number; any
                // other is refused, not rounded: amounts are whole dollars.
                self.pos += 1;
                while self.src.get(self.pos).is_some_and(u8::is_ascii_digit) {
                    self.pos += 1;
                }
                if self.src[whole + 1..self.pos].iter().any(|&d| d != b'0') {
                    let text = String::from_utf8_lossy(&self.src[start..self.pos]);
                    return Err(self.err(line, format!("{text}: decimal numbers are not supported (amounts are whole dollars)")));
                }
            }
            let text = std::str::from_utf8(&self.src[start..whole]).unwrap_or_default();
            Tok::Int(
                text.parse()
                    .map_err(|_| self.err(line, format!("number out of range: {text}")))?,
            )
        } else if c == b'_' || self.char_at(start).is_some_and(char::is_alphabetic) {
            // As in SWI-Prolog, letters of any script: a capital or `_`
            // starts a variable, any other letter a name.
            while let Some(n) = self.word_char_len(self.pos) {
                self.pos += n;
            }
            let text = String::from_utf8_lossy(&self.src[start..self.pos]).into_owned();
            if c == b'_' || self.char_at(start).is_some_and(char::is_uppercase) {
                Tok::Var(text)
            } else {
                Tok::Name(text)
            }
        } else if c == b'\'' {
            Tok::Quoted(self.quoted(b'\'')?)
        } else if c == b'"' {
            Tok::Str(self.quoted(b'"')?)
        } else if c == b'(' && start > 0 && {
            let p = self.src[start - 1];
            // A byte past ASCII ends a letter of another script.
            p.is_ascii_alphanumeric() || !p.is_ascii() || p == b'_' || p == b'\'' || SYMBOL_CHARS.contains(&p)
        } {
            self.pos += 1;
            Tok::FunctorOpen
        } else if b"()[],|!;".contains(&c) {
            self.pos += 1;
            Tok::Punct(c as char)
        } else if c == b'.'
            && self
                .src
                .get(self.pos + 1)
                .is_none_or(|b| b.is_ascii_whitespace() || *b == b'%')
        {
            self.pos += 1;
            Tok::End
        } else if SYMBOL_CHARS.contains(&c) {
            while self.src.get(self.pos).is_some_and(|b| SYMBOL_CHARS.contains(b)) {
                self.pos += 1;
            }
            Tok::Name(String::from_utf8_lossy(&self.src[start..self.pos]).into_owned())
        } else {
            let c = self.char_at(start).unwrap_or(char::REPLACEMENT_CHARACTER);
            return Err(self.err(line, format!("unexpected character {c:?}")));
        };
        Ok(Some((tok, line)))
    }
}

#[derive(Clone, Copy)]
enum Assoc {
    Xfx,
    Xfy,
    Yfx,
}

fn infix(name: &str) -> Option<(u32, Assoc)> {
    Some(match name {
        ":-" => (1200, Assoc::Xfx),
        ";" | "|" => (1100, Assoc::Xfy),
        "->" => (1050, Assoc::Xfy),
        "," => (1000, Assoc::Xfy),
        "=" | "==" | "\\==" | "\\=" | "<" | ">" | "=<" | ">=" | "is" | "=:=" | "=\\=" | "@<"
        | "@>" => (700, Assoc::Xfx),
        "+" | "-" => (500, Assoc::Yfx),
        "*" | "/" | "//" | "mod" => (400, Assoc::Yfx),
        _ => return None,
    })
}

fn prefix(name: &str) -> Option<u32> {
    match name {
        ":-" => Some(1200),
        "discontiguous" | "dynamic" => Some(1150),
        "\\+" => Some(900),
        "-" => Some(200),
        _ => None,
    }
}

struct Parser<'a> {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    file: &'a str,
    vars: Vec<String>,
}

impl<'a> Parser<'a> {
    fn line(&self) -> usize {
        self.toks
            .get(self.pos)
            .or_else(|| self.toks.last())
            .map_or(0, |t| t.1)
    }

    fn err(&self, message: impl Into<String>) -> DataError {
        DataError::Syntax {
            file: self.file.to_string(),
            line: self.line(),
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn bump(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|t| t.0.clone());
        self.pos += 1;
        t
    }

    fn expect(&mut self, c: char) -> Result<()> {
        match self.bump() {
            Some(Tok::Punct(p)) if p == c => Ok(()),
            Some(t) => {
                self.pos -= 1;
                Err(self.err(format!("expected '{c}', found {}", describe(&t))))
            }
            None => Err(self.err(format!("expected '{c}', found the end of the clause"))),
        }
    }

    fn var(&mut self, name: &str) -> PTerm {
        if name == "_" {
            self.vars.push("_".into());
            return PTerm::Var(self.vars.len() as u32 - 1);
        }
        match self.vars.iter().position(|v| v == name) {
            Some(i) => PTerm::Var(i as u32),
            None => {
                self.vars.push(name.to_string());
                PTerm::Var(self.vars.len() as u32 - 1)
            }
        }
    }

    fn args(&mut self) -> Result<Vec<PTerm>> {
        let mut args = vec![self.expr(999)?];
        while self.peek() == Some(&Tok::Punct(',')) {
            self.pos += 1;
            args.push(self.expr(999)?);
        }
        Ok(args)
    }

    fn primary(&mut self, max: u32) -> Result<(PTerm, u32)> {
        let Some(tok) = self.bump() else {
            return Err(self.err("unexpected end of the clause"));
        };
        Ok(match tok {
            Tok::Int(i) => (PTerm::Int(i), 0),
            Tok::Str(s) => (PTerm::Str(s), 0),
            Tok::Var(v) => (self.var(&v), 0),
            Tok::Punct('(') | Tok::FunctorOpen => {
                let t = self.expr(1200)?;
                self.expect(')')?;
                (t, 0)
            }
            Tok::Punct('[') => {
                if self.peek() == Some(&Tok::Punct(']')) {
                    self.pos += 1;
                    return Ok((PTerm::List(vec![]), 0));
                }
                let items = self.args()?;
                if self.peek() == Some(&Tok::Punct('|')) {
                    return Err(self.err("list tails [H|T] are not supported"));
                }
                self.expect(']')?;
                (PTerm::List(items), 0)
            }
            Tok::Name(name) | Tok::Quoted(name) => {
                if self.peek() == Some(&Tok::FunctorOpen) {
                    self.pos += 1;
                    let args = self.args()?;
                    self.expect(')')?;
                    return Ok((PTerm::Compound(name, args), 0));
                }
                if let Some(p) = prefix(&name) {
                    if name == "-" {
                        if let Some(Tok::Int(i)) = self.peek().cloned() {
                            self.pos += 1;
                            return Ok((PTerm::Int(-i), 0));
                        }
                    }
                    let starts_term = matches!(
                        self.peek(),
                        Some(Tok::Name(_) | Tok::Quoted(_) | Tok::Var(_) | Tok::Str(_) | Tok::Int(_))
                            | Some(Tok::Punct('(' | '['))
                            | Some(Tok::FunctorOpen)
                    );
                    if starts_term && p <= max {
                        let arg_max = if name == "\\+" { p } else { p - 1 };
                        let arg = self.expr(arg_max)?;
                        return Ok((PTerm::Compound(name, vec![arg]), p));
                    }
                }
                (PTerm::Atom(name), 0)
            }
            Tok::Punct('!') => (PTerm::Atom("!".into()), 0),
            other => {
                self.pos -= 1;
                return Err(self.err(format!("unexpected {}", describe(&other))));
            }
        })
    }

    fn expr(&mut self, max: u32) -> Result<PTerm> {
        let (mut left, mut left_prec) = self.primary(max)?;
        loop {
            let name = match self.peek() {
                Some(Tok::Name(n)) => n.clone(),
                Some(Tok::Punct(c @ (',' | ';' | '|'))) => c.to_string(),
                _ => break,
            };
            let Some((prec, assoc)) = infix(&name) else {
                break;
            };
            let (left_max, right_max) = match assoc {
                Assoc::Xfx => (prec - 1, prec - 1),
                Assoc::Xfy => (prec - 1, prec),
                Assoc::Yfx => (prec, prec - 1),
            };
            if prec > max || left_prec > left_max {
                break;
            }
            self.pos += 1;
            let right = self.expr(right_max)?;
            let name = if name == "|" { ";".to_string() } else { name };
            left = PTerm::Compound(name, vec![left, right]);
            left_prec = prec;
        }
        Ok(left)
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Name(n) | Tok::Quoted(n) => format!("'{n}'"),
        Tok::Var(v) => format!("variable {v}"),
        Tok::Str(s) => format!("string {s:?}"),
        Tok::Int(i) => format!("number {i}"),
        Tok::Punct(c) => format!("'{c}'"),
        Tok::FunctorOpen => "'('".into(),
        Tok::End => "'.'".into(),
    }
}

/// Reads every clause of `src`. `first_line` is the file line of `src`'s
/// first line, so that errors and [`Clause::line`] name lines of `file`.
pub fn parse_clauses(src: &str, file: &str, first_line: usize) -> Result<Vec<Clause>> {
    let mut lexer = Lexer {
        src: src.as_bytes(),
        pos: 0,
        line: first_line,
        file,
    };
    let mut clauses = Vec::new();
    let mut toks = Vec::new();
    while let Some((tok, line)) = lexer.next()? {
        if tok == Tok::End {
            if toks.is_empty() {
                return Err(lexer.err(line, "empty clause"));
            }
            clauses.push(parse_clause(std::mem::take(&mut toks), file)?);
        } else {
            toks.push((tok, line));
        }
    }
    if let Some((_, line)) = toks.first() {
        return Err(DataError::Syntax {
            file: file.to_string(),
            line: *line,
            message: "clause does not end with '.'".into(),
        });
    }
    Ok(clauses)
}

fn parse_clause(toks: Vec<(Tok, usize)>, file: &str) -> Result<Clause> {
    let line = toks[0].1;
    let mut p = Parser {
        toks,
        pos: 0,
        file,
        vars: Vec::new(),
    };
    let term = p.expr(1200)?;
    if p.pos < p.toks.len() {
        let t = p.toks[p.pos].0.clone();
        return Err(p.err(format!("unexpected {} (missing operator or '.'?)", describe(&t))));
    }
    let (head, body) = match term {
        PTerm::Compound(op, mut args) if op == ":-" && args.len() == 2 => {
            let body = args.pop();
            (args.pop(), body)
        }
        PTerm::Compound(op, mut args) if op == ":-" && args.len() == 1 => (None, args.pop()),
        t => (Some(t), None),
    };
    Ok(Clause {
        head,
        body,
        line,
        var_names: p.vars,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_facts_rules_and_directives() {
        let src = "agent_(e,alice).\n% comment\np(X) :- between(1,3,X), \\+ q(X).\n:- \\+ (a, b).\n";
        let cs = parse_clauses(src, "t.pl", 1).unwrap();
        assert_eq!(cs.len(), 3);
        assert_eq!(cs[0].head.as_ref().unwrap().to_string(), "agent_(e,alice)");
        assert_eq!(cs[1].line, 3);
        assert_eq!(cs[1].body.as_ref().unwrap().functor(), Some((",", 2)));
        assert!(cs[2].head.is_none());
        assert_eq!(cs[2].body.as_ref().unwrap().functor(), Some(("\\+", 1)));
    }

    #[test]
    fn operators_bind_as_in_prolog() {
        let cs = parse_clauses("h :- a, b ; c -> d ; e.", "t.pl", 1).unwrap();
        // ; is weaker than , and ->
        let body = cs[0].body.as_ref().unwrap();
        assert_eq!(body.functor(), Some((";", 2)));
        assert_eq!(body.args()[0].functor(), Some((",", 2)));
    }

    #[test]
    fn names_and_variables_take_letters_of_any_script() {
        let cs = parse_clauses("agent_(zoë_and_josé, zoë).\np(Ölaf) :- q(Ölaf).\n", "t.pl", 1).unwrap();
        assert_eq!(cs[0].head.as_ref().unwrap().to_string(), "agent_(zoë_and_josé,zoë)");
        assert_eq!(cs[1].var_names, ["Ölaf"]);
        let err = parse_clauses("a(x → y).", "case.pl", 4).unwrap_err();
        assert_eq!(err.to_string(), "case.pl:4: unexpected character '→'");
    }

    #[test]
    fn whole_numbers_with_a_zero_fraction_and_no_other_decimals() {
        let cs = parse_clauses("amount_(p, 33200.00).\namount_(q, 7).\n", "t.pl", 1).unwrap();
        assert_eq!(cs[0].head.as_ref().unwrap().to_string(), "amount_(p,33200)");
        assert_eq!(cs[1].head.as_ref().unwrap().to_string(), "amount_(q,7)");
        let err = parse_clauses("a(x).\namount_(p, 33200.50).", "case.pl", 1).unwrap_err();
        assert_eq!(err.to_string(), "case.pl:2: 33200.50: decimal numbers are not supported (amounts are whole dollars)");
    }

    #[test]
    fn missing_full_stop_names_the_line() {
        let err = parse_clauses("a(x).\nb(y)\n\n", "case.pl", 10).unwrap_err();
        assert_eq!(err.to_string(), "case.pl:11: clause does not end with '.'");
        let err = parse_clauses("a(x).\nb(y)\nc(z).", "case.pl", 1).unwrap_err();
        assert!(err.to_string().starts_with("case.pl:3:"), "{err}");
    }
}
