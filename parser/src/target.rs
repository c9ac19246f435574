//! The parser's target: the canonical linear form (see
//! [`lexlog_data::linear`]) as a sequence of actions. A value the text
//! mentions (a name, amount, date) is produced by copying its mention; every
//! other token (event types, roles, predicates, keywords, ids, punctuation,
//! and values the text does not spell, such as `amount=1`) comes from a
//! closed vocabulary. Decoding prints the tokens back and reads them with
//! the linear reader, so a beam either reads as a well-formed IR or is
//! rejected with the reader's error.

use crate::mentions::Mention;
use chrono::NaiveDate;
use lexlog_data::linear;
use lexlog_data::{Aux, EventKind, Role, Value};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A token of the linear form: structure, or a value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Token {
    Sym(String),
    Value(Value),
}

/// What the decoder emits at one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Vocab(u32),
    Copy(u32),
}

pub const PAD: u32 = 0;
pub const BOS: u32 = 1;
pub const EOS: u32 = 2;
pub const UNK: u32 = 3;
const SPECIALS: [&str; 4] = ["<pad>", "<s>", "</s>", "<unk>"];

/// Splits linear text into tokens. Names spliced with a variable
/// (`e3_{Y}`) become the prefix and the splice `{Y}`.
pub fn lex(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            out.push(Token::Sym("\n".into()));
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '"' || c == '\'' {
            let mut j = i + 1;
            let mut s = String::new();
            while j < chars.len() && chars[j] != c {
                if chars[j] == '\\' && j + 1 < chars.len() {
                    j += 1;
                }
                s.push(chars[j]);
                j += 1;
            }
            out.push(Token::Value(if c == '"' { Value::Text(s) } else { Value::Name(s) }));
            i = j + 1;
        } else if c == '{' {
            // `{Y}` splices a variable into a name; a lone `{` opens a group.
            let var = chars[i + 1..].iter().take_while(|x| x.is_ascii_alphanumeric() || **x == '_').count();
            let j = if var > 0 && chars.get(i + 1 + var) == Some(&'}') { i + var + 2 } else { i + 1 };
            out.push(Token::Sym(chars[i..j].iter().collect()));
            i = j;
        } else if c.is_ascii_alphanumeric() || c == '_' || (c == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let mut j = i + 1;
            while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_' || (chars[j] == '-' && chars[i].is_ascii_digit())) {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            out.push(classify(&word));
            i = j;
        } else if c == '.' && chars.get(i + 1) == Some(&'.') {
            out.push(Token::Sym("..".into()));
            i += 2;
        } else {
            out.push(Token::Sym(c.to_string()));
            i += 1;
        }
    }
    out
}

/// The words that shape a line (a fact, a group, a query) rather than
/// name a value.
pub const LINE_WORDS: [&str; 6] = ["event", "for", "in", "query", "unbound", "before"];

/// The words that give a date from a year: `first_day 2017`, `within`.
pub const DATE_WORDS: [&str; 3] = ["first_day", "last_day", "within"];

/// Structure words stay symbols; other words are values.
fn classify(word: &str) -> Token {
    if let Ok(d) = NaiveDate::parse_from_str(word, "%Y-%m-%d") {
        return Token::Value(Value::Date(d));
    }
    if let Ok(n) = word.parse::<i64>() {
        return Token::Value(Value::Int(n));
    }
    let structural = EventKind::from_name(word).is_some()
        || Role::from_name(word).is_some()
        || Aux::from_name(word).is_some()
        || lexlog_data::SectionId::parse(word).is_some()
        || LINE_WORDS.contains(&word)
        || DATE_WORDS.contains(&word)
        || word == "_"
        || word.starts_with(|c: char| c.is_ascii_uppercase())
        || is_event_id(word);
    if structural {
        Token::Sym(word.to_string())
    } else {
        Token::Value(Value::Name(word.to_string()))
    }
}

/// Canonical event ids: `e12`, and `e12_` before a splice.
fn is_event_id(word: &str) -> bool {
    event_number(word).is_some()
}

/// The number of a canonical event id: `e12`, and `e12_` before a splice.
pub fn event_number(word: &str) -> Option<u32> {
    let w = word.strip_suffix('_').unwrap_or(word);
    w.strip_prefix('e').filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))?.parse().ok()
}

/// How a sentence unit names an event that an earlier sentence declares:
/// `prev_marriage`, the last marriage before (resolved when units join).
pub const PREVIOUS: &str = "prev_";

/// The event kind a `prev_KIND` reference names.
pub fn earlier_event(name: &str) -> Option<lexlog_data::EventKind> {
    name.strip_prefix(PREVIOUS).and_then(lexlog_data::EventKind::from_name)
}

/// `tokens` with every canonical event id moved `offset` on (`e2` -> `e5`,
/// `e2_` -> `e5_`): to put one output's events after another's.
pub fn shift_events(tokens: &[Token], offset: u32) -> Vec<Token> {
    tokens
        .iter()
        .map(|t| match t {
            Token::Sym(s) => match event_number(s) {
                Some(n) => Token::Sym(format!("e{}{}", n + offset, if s.ends_with('_') { "_" } else { "" })),
                None => t.clone(),
            },
            t => t.clone(),
        })
        .collect()
}

/// The events `tokens` declare (`KIND eN`, not a group's `eN_{Y}`), in
/// order, with their kinds.
pub fn declared_events(tokens: &[Token]) -> impl Iterator<Item = (EventKind, &str)> {
    tokens.windows(2).filter_map(|w| match w {
        [Token::Sym(kind), Token::Sym(id)] if event_number(id).is_some() && !id.ends_with('_') => Some((EventKind::from_name(kind)?, id.as_str())),
        _ => None,
    })
}

/// The highest canonical event number among `tokens` (0 if none).
pub fn max_event(tokens: &[Token]) -> u32 {
    tokens
        .iter()
        .filter_map(|t| match t {
            Token::Sym(s) => event_number(s),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// Prints tokens back as linear text.
pub fn render(tokens: &[Token]) -> String {
    let mut out = String::new();
    for t in tokens {
        let piece = match t {
            Token::Sym(s) => s.clone(),
            Token::Value(v) => linear::value_text(v),
        };
        let glue = piece.starts_with('{') || piece == "\n" || out.is_empty() || out.ends_with('\n');
        if !glue {
            out.push(' ');
        }
        out.push_str(&piece);
    }
    out
}

/// The closed vocabulary of target tokens.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Vocab {
    pub tokens: Vec<String>,
    #[serde(skip)]
    index: HashMap<String, u32>,
}

fn token_key(t: &Token) -> String {
    match t {
        Token::Sym(s) => s.clone(),
        Token::Value(v) => linear::value_text(v),
    }
}

impl Vocab {
    /// The grammar's words, `extra` words (the statute's subsection ids),
    /// small numbers, and every token of `targets` that is not copied.
    pub fn build<'a>(targets: impl IntoIterator<Item = (&'a [Token], &'a [Mention])>, extra: &[String]) -> Vocab {
        let mut tokens: Vec<String> = SPECIALS.iter().map(|s| s.to_string()).collect();
        let mut grammar: Vec<String> = EventKind::ALL.iter().map(|k| k.as_str().to_string()).collect();
        grammar.extend(Role::ALL.iter().map(|r| r.as_str().to_string()));
        grammar.extend(Aux::ALL.iter().map(|a| a.as_str().to_string()));
        grammar.extend(
            ["event", "for", "in", "query", "unbound", "first_day", "last_day", "within", "before", "_", "\n", "=", "{", "}", "[", "]", "(", ")", ",", "&", ".."]
                .iter()
                .map(|s| s.to_string()),
        );
        grammar.extend((1..=60).flat_map(|i| [format!("e{i}"), format!("e{i}_")]));
        tokens.extend(grammar);
        tokens.extend(extra.iter().cloned());
        tokens.extend((0..=12).map(|i| i.to_string()));
        for (target, mentions) in targets {
            for t in target {
                if let Token::Value(v) = t {
                    if mentions.iter().any(|m| &m.value == v) {
                        continue;
                    }
                }
                tokens.push(token_key(t));
            }
        }
        let mut seen = std::collections::HashSet::new();
        tokens.retain(|t| seen.insert(t.clone()));
        let mut v = Vocab { tokens, index: HashMap::new() };
        v.reindex();
        v
    }

    pub fn from_tokens(tokens: Vec<String>) -> Vocab {
        let mut v = Vocab { tokens, index: HashMap::new() };
        v.reindex();
        v
    }

    pub fn reindex(&mut self) {
        self.index = self.tokens.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
    }

    /// The id of a token, as `tokens` spells it.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.index.get(token).copied()
    }

    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Actions for a target: a copy where a mention has the value, else the
    /// vocabulary (or `<unk>`), then `</s>`.
    pub fn encode(&self, target: &[Token], mentions: &[Mention]) -> Vec<Action> {
        let mut out: Vec<Action> = target
            .iter()
            .map(|t| {
                if let Token::Value(v) = t {
                    if let Some(i) = mentions.iter().position(|m| &m.value == v) {
                        return Action::Copy(i as u32);
                    }
                }
                // A predicate the text cites is copied from its citation.
                if let Token::Sym(s) = t {
                    if lexlog_data::SectionId::parse(s).is_some() {
                        if let Some(i) = mentions.iter().position(|m| matches!(&m.value, Value::Name(n) if n == s)) {
                            return Action::Copy(i as u32);
                        }
                    }
                }
                Action::Vocab(self.index.get(&token_key(t)).copied().unwrap_or(UNK))
            })
            .collect();
        out.push(Action::Vocab(EOS));
        out
    }

    /// Tokens for actions, up to `</s>`; `None` on `<unk>` or a bad copy.
    pub fn decode(&self, actions: &[Action], mentions: &[Mention]) -> Option<Vec<Token>> {
        let mut out = Vec::new();
        for a in actions {
            match *a {
                Action::Vocab(EOS) => break,
                Action::Vocab(PAD | BOS | UNK) => return None,
                Action::Vocab(i) => {
                    let s = self.tokens.get(i as usize)?;
                    out.push(classify_or_sym(s));
                }
                Action::Copy(i) => out.push(Token::Value(mentions.get(i as usize)?.value.clone())),
            }
        }
        Some(out)
    }
}

fn classify_or_sym(s: &str) -> Token {
    match lex(s).as_slice() {
        [t] => t.clone(),
        _ => Token::Sym(s.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mentions::extract;

    #[test]
    fn lex_render_round_trip() {
        let text = "payment e1 agent=alice amount=1200 start=2012-04-05 purpose=\"agricultural labor\"\nfor Y in 2017..2117 {\n  payment e3_{Y} agent=bob start=first_day(Y)\n}\nquery tax alice 2017\n";
        let tokens = lex(text);
        let back = render(&tokens);
        assert_eq!(linear::parse(&back).unwrap(), linear::parse(text).unwrap(), "{back}");
        // A group's `{` is a token of its own, not glued to the next line.
        assert!(tokens.contains(&Token::Sym("{".into())) && tokens.contains(&Token::Sym("{Y}".into())), "{tokens:?}");
        assert!(tokens.contains(&Token::Sym("payment".into())));
    }

    #[test]
    fn values_in_the_text_are_copied() {
        let text = "Alice paid $1200 on April 5th, 2012.";
        let mentions = extract(text);
        let target = lex("payment e1 agent=alice amount=1200 start=2012-04-05\n");
        let vocab = Vocab::build([(target.as_slice(), mentions.as_slice())], &[]);
        let actions = vocab.encode(&target, &mentions);
        assert_eq!(actions.iter().filter(|a| matches!(a, Action::Copy(_))).count(), 3);
        assert_eq!(vocab.decode(&actions, &mentions).unwrap(), target);
    }
}
