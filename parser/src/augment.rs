//! Data augmentation from the train split only: consistent substitution of
//! people's names and of dollar amounts in a case's text and target, so the
//! parser learns to copy what the text says rather than to remember
//! SARA's names and numbers.

use crate::example::Example;
use crate::mentions::extract;
use crate::target::Token;
use lexlog_data::Value;

const NAMES: [&str; 16] = [
    "Ursula", "Victor", "Wendy", "Xavier", "Yolanda", "Zeke", "Maria", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tara", "Ivan", "Hana", "Gil",
];

fn replace_word(text: &str, from: &str, to: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word == from {
            out.push_str(to);
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn rename_value(v: &Value, from: &str, to: &str) -> Value {
    match v {
        Value::Name(n) => Value::Name(n.split('_').map(|p| if p == from { to } else { p }).collect::<Vec<_>>().join("_")),
        other => other.clone(),
    }
}

/// One variant of `e`: the people renamed by `shift`, amounts scaled.
fn variant(e: &Example, shift: usize, factor: i64) -> Example {
    let mut source = e.source.clone();
    let mut target = e.target.clone();
    let people: Vec<String> = ["Alice", "Bob", "Charlie", "Dan", "Dorothy", "Emily", "Fred", "George", "Cameron", "Harold"]
        .iter()
        .filter(|n| source.contains(*n))
        .map(|n| n.to_string())
        .collect();
    for (i, name) in people.iter().enumerate() {
        let new = NAMES[(i + shift) % NAMES.len()];
        source = replace_word(&source, name, new);
        let (from, to) = (name.to_lowercase(), new.to_lowercase());
        target = target
            .into_iter()
            .map(|t| match t {
                Token::Value(v) => Token::Value(rename_value(&v, &from, &to)),
                s => s,
            })
            .collect();
    }
    // Dollar amounts: "$N" in the text and N in the target, scaled alike.
    for m in extract(&e.source) {
        if let Value::Int(n) = m.value {
            let spelled = &e.source[m.start..m.end];
            if spelled.starts_with('$') && n > 100 {
                let new = n * factor / 100;
                source = source.replace(&format!("${n}"), &format!("${new}"));
                target = target
                    .into_iter()
                    .map(|t| if t == Token::Value(Value::Int(n)) { Token::Value(Value::Int(new)) } else { t })
                    .collect();
            }
        }
    }
    let mentions = extract(&source);
    Example { id: format!("{}~{shift}", e.id), source, mentions, target }
}

/// The examples and two variants of each.
pub fn augment(examples: Vec<Example>, seed: u64) -> Vec<Example> {
    let mut out = Vec::with_capacity(examples.len() * 3);
    for (i, e) in examples.iter().enumerate() {
        let s = (seed as usize).wrapping_add(i);
        out.push(variant(e, s % 7 + 1, 87 + (s % 5) as i64 * 6));
        out.push(variant(e, s % 5 + 8, 113 + (s % 3) as i64 * 4));
    }
    out.extend(examples);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::lex;

    #[test]
    fn names_and_amounts_change_together() {
        let source = "Alice paid $1200 to Bob.".to_string();
        let e = Example { id: "x".into(), mentions: extract(&source), source, target: lex("payment e1 agent=alice patient=bob amount=1200\n") };
        let v = variant(&e, 1, 150);
        assert!(!v.source.contains("Alice") && v.source.contains("$1800"), "{}", v.source);
        let names: Vec<&Token> = v.target.iter().filter(|t| matches!(t, Token::Value(Value::Name(_)))).collect();
        assert_eq!(names.len(), 2);
        assert!(v.target.contains(&Token::Value(Value::Int(1800))));
        for t in &v.target {
            if let Token::Value(val) = t {
                assert!(v.mentions.iter().any(|m| &m.value == val), "{val:?} not copyable from {}", v.source);
            }
        }
    }
}
