//! The linear form's grammar as a viable-prefix check for decoding: after
//! the tokens so far, which tokens may come next. Every sequence it lets
//! finish reads back as an IR, role values have their role's type (dates
//! for `start` and `end`, numbers for `amount`, participants otherwise),
//! a group's variable is used only inside the group and its range is not
//! empty, event ids come in order of first appearance, no event ends
//! before it starts, repeats one before it or has its agent as its
//! patient, the query comes last and names each variable twice or not at
//! all, and with the solver's signatures it asks known predicates with a
//! right number of arguments, each of its place's type (names, dates,
//! integers where the rules read them; a copied year is no amount), a goal
//! with a year's place naming a year the question mentions.

use crate::mentions::{is_year, Mention, MentionKind};
use crate::people::is_first_name;
use crate::target::{earlier_event, event_number, max_event, Token, DATE_WORDS, LINE_WORDS};
use chrono::{Datelike, NaiveDate};
use lexlog_data::{ArgType, EventKind, Predicate, Role, SectionId, Value};
use lexlog_data::english::is_function_word;
use std::collections::HashMap;

/// The predicates a query may ask, by name: the argument types of each of
/// its arities (from the solver's rules).
pub type Signatures = HashMap<String, Vec<Vec<ArgType>>>;

/// The pairs of places (first < second) that some rule's head fills with
/// one variable, by predicate name (over all its arities): where a query
/// goal may name one person twice (`s3306_b`'s employer and employee).
pub type SharedPlaces = HashMap<String, Vec<(usize, usize)>>;

/// Where a query's prefix stands inside a goal's arguments.
#[derive(Debug, Clone, Default)]
struct GoalAt {
    pred: String,
    /// The place the next argument fills.
    place: usize,
    /// The values of the places before (names, numbers, dates), where one
    /// token gave one.
    values: Vec<(usize, Value)>,
    /// The variables of the places before.
    vars: Vec<(usize, String)>,
}

impl GoalAt {
    /// Whether the goal's places so far name one of `years`; true where
    /// there are none to name (a question without a year).
    fn names_one_of<'v>(&self, years: impl Iterator<Item = &'v Value>) -> bool {
        let mut years = years.peekable();
        years.peek().is_none() || years.any(|y| self.values.iter().any(|(_, v)| v == y))
    }
}

/// What a term position accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Any,
    Date,
    Number,
    Participant,
    /// A participant that is no event: who acts, for whom, where (an event
    /// is only ever a purpose, patient, reason or means).
    Party,
    /// Where something happened: a party, spelled from the vocabulary
    /// only as the text allows ([`placed`]).
    Place,
    /// A person's name (the taxpayer of `query tax`).
    Person,
    /// An event's id: a query about a payment or an employment.
    Event,
    /// A year argument: a year-like integer, not a `$` amount.
    Year,
    /// The year of `query tax`: a year the question gives, if it gives one.
    TaxYear,
    /// An integer that is not a copied year.
    Amount,
}

/// The slot of a query argument of these types.
fn slot_of_type(t: ArgType) -> Slot {
    match t {
        ArgType::NAME => Slot::Party,
        ArgType::EVENT => Slot::Event,
        ArgType::NAME_OR_EVENT => Slot::Participant,
        ArgType::YEAR => Slot::Year,
        ArgType::NUMBER => Slot::Amount,
        ArgType::INT => Slot::Number,
        ArgType::DATE => Slot::Date,
        _ => Slot::Any,
    }
}

fn slot_of(role: Role) -> Slot {
    match role {
        Role::Start | Role::End => Slot::Date,
        Role::Amount => Slot::Number,
        Role::Purpose | Role::Patient | Role::Reason | Role::Means => Slot::Participant,
        Role::Location => Slot::Place,
        _ => Slot::Party,
    }
}

/// One class of acceptable next tokens.
#[derive(Debug, Clone, PartialEq)]
enum Class {
    Newline,
    Word(&'static str),
    /// The start of a term for a slot.
    Term(Slot),
    /// The same, but none of these whole values: a role names a value once
    /// per event; and a date within the span (an end no earlier than the
    /// event's start, a start no later than its end).
    FreshTerm(Slot, Vec<Token>, Span),
    /// A value of the slot (no variables, ids or functions).
    Value(Slot),
    /// The end of a group's range: a number from its start on.
    RangeEnd(i64),
    /// A fresh variable (a group's).
    NewVar,
    /// A variable in scope.
    Var,
    /// `{V}` with V in scope.
    Splice,
    EventId,
    /// A role; `end` only once per event.
    Role { ended: bool },
    /// A fact line's head: an event type, `event`, `for` or a predicate.
    FactHead,
    /// A query goal's head; the first names the section a citing question
    /// asks.
    GoalHead { first: bool },
    /// `tax`, which a question citing a section does not ask.
    Tax,
}

/// What may come next after a prefix.
#[derive(Debug, Clone, Default)]
pub struct Expected<'a> {
    classes: Vec<Class>,
    end: bool,
    scope: Vec<String>,
    any_var: bool,
    signatures: Option<&'a Signatures>,
    /// Event ids are numbered by first appearance: the next may be any
    /// seen so far or the one after them.
    max_id: u32,
    /// Inside the query line.
    in_query: bool,
    /// The query's names are the question's ([`Expected::names_from_question`]).
    question_names: bool,
    /// A sentence's facts name only people the sentence mentions
    /// ([`Expected::sentence_names`]).
    sentence_names: bool,
    /// A query's years and dates are the question's
    /// ([`Expected::years_from_question`]).
    question_years: bool,
    /// The goal whose arguments the prefix is in, if any.
    goal: Option<GoalAt>,
    /// A goal gives a value once, but where a rule shares the places
    /// ([`Expected::distinct_values`]).
    shared: Option<&'a SharedPlaces>,
    /// A goal with a year's place names a year the question mentions
    /// ([`Expected::asked_year`]; on unless turned off).
    asked_year_off: bool,
    /// A citing question's query asks the nearest defined section
    /// ([`Expected::nearest_section`]; on unless turned off).
    nearest_off: bool,
    /// Inside the query line: the predicates its goals ask so far.
    heads: Vec<String>,
}

fn word(t: &Token) -> Option<&str> {
    match t {
        Token::Sym(s) => Some(s),
        Token::Value(Value::Name(n)) => Some(n),
        _ => None,
    }
}

/// The value a one-token argument gives: a copied or vocabulary value, or
/// a bare word as a name.
fn token_value(t: &Token) -> Option<Value> {
    match t {
        Token::Value(v) => Some(v.clone()),
        Token::Sym(s) if s != "_" && !is_var(s) && event_id(s).is_none() && s.starts_with(|c: char| c.is_ascii_lowercase()) => Some(Value::Name(s.clone())),
        _ => None,
    }
}

/// A person's, place's or thing's name (not a number nor a date).
fn is_name(v: &Value) -> bool {
    matches!(v, Value::Name(_) | Value::Text(_))
}

fn is_var(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase()) && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `e12` (whole) or `e12_` (before a splice).
fn event_id(s: &str) -> Option<bool> {
    event_number(s).map(|_| s.ends_with('_'))
}

fn value_fits(v: &Value, slot: Slot) -> bool {
    match slot {
        Slot::Any => true,
        Slot::Date => matches!(v, Value::Date(_)),
        Slot::Number | Slot::Amount => matches!(v, Value::Int(_)),
        Slot::Year | Slot::TaxYear => matches!(v, Value::Int(y) if is_year(*y)),
        Slot::Participant => matches!(v, Value::Name(_) | Value::Text(_)),
        // A `prev_KIND` reference is an event's id.
        Slot::Party | Slot::Place => matches!(v, Value::Name(n) if earlier_event(n).is_none()) || matches!(v, Value::Text(_)),
        Slot::Person => matches!(v, Value::Name(n) if earlier_event(n).is_none()),
        // Event ids are the vocabulary's, never copied.
        Slot::Event => false,
    }
}

/// A mention that may be a year: a number of four digits, not a `$` amount
/// (nor a series' horizon).
fn year_like(m: &Mention) -> bool {
    matches!(m.value, Value::Int(y) if is_year(y)) && !matches!(m.kind, MentionKind::Amount | MentionKind::Horizon)
}

/// The year a value gives: a year's number, or a date's year.
fn year_of(v: &Value) -> Option<i32> {
    match v {
        Value::Int(y) if is_year(*y) => i32::try_from(*y).ok(),
        Value::Date(d) => Some(d.year()),
        _ => None,
    }
}

/// The years the question mentions.
fn asked_years(mentions: &[Mention]) -> impl Iterator<Item = &Value> {
    mentions.iter().filter(|m| m.in_question && year_like(m)).map(|m| &m.value)
}

/// A place the rules read a year (or an integer) in.
fn is_year_place(t: &ArgType) -> bool {
    *t == ArgType::YEAR || *t == ArgType::INT
}

/// The sections the question cites.
pub(crate) fn cited(mentions: &[Mention]) -> impl Iterator<Item = &str> {
    mentions.iter().filter(|m| m.in_question).filter_map(Mention::citation)
}

/// A section the query asks is one the question cites, or one above it
/// (`s151_d_5` for "section 151(d)(5)(A)"), where the question cites any;
/// and its first goal is such a section, not `tax` nor an auxiliary
/// predicate ("Alice has to pay $14836 in taxes ... under section 1(a)"
/// asks `s1_a`): so SARA asks in 274 of its 276 entailment cases, and
/// every question that cites no section asks `tax`.
fn cited_or_above(pred: &str, first: bool, mentions: &[Mention]) -> bool {
    let mut cited = cited(mentions).peekable();
    if cited.peek().is_none() {
        return true;
    }
    let Some(pred) = SectionId::parse(pred) else { return !first };
    cited.any(|c| SectionId::parse(c).is_some_and(|c| c.is_within(&pred)))
}

/// The section a question citing `cited` asks: the cited one, or the
/// nearest above it that the rules define (`s151_d_5` for "section
/// 151(d)(5)(A)"); `None` where they define none of them.
pub(crate) fn nearest_defined<'s>(cited: &'s str, signatures: &Signatures) -> Option<&'s str> {
    let mut section = cited;
    loop {
        if signatures.contains_key(section) {
            return Some(section);
        }
        section = &section[..section.rfind('_')?];
    }
}

/// What the decoder knows of a candidate token: the case's mentions, and
/// which of them the token copies (None: a vocabulary token).
#[derive(Clone, Copy)]
struct Origin<'m> {
    mentions: &'m [Mention],
    copy: Option<&'m Mention>,
}

/// A name spelled from the vocabulary, not copied, names only people the
/// case mentions: `dan_s_house` needs a Dan (train's renamed copies put
/// `priya_s_house` in the vocabulary, and beams gave it to Alice's home).
fn grounded(v: &Value, origin: Option<Origin>) -> bool {
    let (Some(o), Value::Name(n)) = (origin, v) else { return true };
    o.copy.is_some()
        || n.split('_').filter(|p| is_first_name(p)).all(|p| o.mentions.iter().any(|m| matches!(&m.value, Value::Name(w) if w.eq_ignore_ascii_case(p))))
}

/// A predicate's name (`tax`, `gross_income`, a section such as `s1_d`)
/// names no one: no gold fact or query of the 376 cases gives one as a
/// value, and beams asked `s1_d tax alice _ 14836 _`.
fn names_predicate(s: &str) -> bool {
    Predicate::parse(s).is_some()
}

/// Nor does a role's name (`end`, `agent`): no gold value of the 376
/// cases is one, and beams asked `s152_a bob alice 2014 end _`.
fn names_role(s: &str) -> bool {
    Role::from_name(s).is_some()
}

/// A word no name may be: a predicate's or a role's, or an English
/// function word ([`is_function_word`]: beams copied "they" as an agent
/// and asked `s1_a [of] 2017 _ 24056`).
fn reserved_word(s: &str) -> bool {
    names_predicate(s) || names_role(s) || is_function_word(s)
}

/// Whether a query line may end here: each variable it names, it names
/// at least twice, joining goals (`s152_d_2_D alice bob Start End &
/// unbound End & …`), as in every gold query of the 376 cases; a variable
/// named once is SARA's `_`, and beams asked `s151_d_3_A alice 1800
/// Start_relationship End_relationship Gross_income Applicable_amount
/// 2015`.
fn no_lone_variable(line: &[Token]) -> bool {
    let vars: Vec<&String> = line.iter().filter_map(|t| match t { Token::Sym(s) if is_var(s) => Some(s), _ => None }).collect();
    vars.iter().all(|v| vars.iter().filter(|w| *w == v).count() >= 2)
}

/// An event line's roles and values (`agent = alice`, `start =
/// first_day ( Y )`), in order; `None` for an event of a group (its id
/// spliced with the group's variable) and for one without roles (`plan
/// e5`, which the facts naming it tell apart).
fn role_values(line: &[Token]) -> Option<Vec<&[Token]>> {
    let id = line.get(1).and_then(word)?;
    if event_id(id) != Some(false) {
        return None;
    }
    let rest = &line[2..];
    let is_role = |i: usize| word(&rest[i]).and_then(Role::from_name).is_some() && rest.get(i + 1).and_then(word) == Some("=");
    let starts: Vec<usize> = (0..rest.len()).filter(|&i| is_role(i)).collect();
    let out: Vec<&[Token]> = starts.iter().zip(starts.iter().skip(1).chain([&rest.len()])).map(|(&a, &b)| &rest[a..b]).collect();
    Some(out).filter(|o| !o.is_empty())
}

/// Whether an event line states again an event the lines before state,
/// the same kind with the same roles and values: SARA states an event
/// once (every gold target of the 376 cases keeps to it, but a group's
/// events, whose ids a variable tells apart, and events without roles,
/// such as two plans a payment each goes to), and beams gave Bob two
/// residences alike ("In 2019, Bob has a different principal place of
/// abode than Alice and Charlie").
fn states_again(before: &[Token], line: &[Token]) -> bool {
    let Some(this) = role_values(line) else { return false };
    // The same roles and values in any order (an event has a few).
    let count = |of: &[&[Token]], x: &[Token]| of.iter().filter(|y| **y == x).count();
    let alike = |other: &[&[Token]]| other.len() == this.len() && this.iter().all(|x| count(&this, x) == count(other, x));
    before
        .split(|t| matches!(t, Token::Sym(s) if s == "\n"))
        .any(|earlier| earlier.first() == line.first() && role_values(earlier).is_some_and(|r| alike(&r)))
}

/// A place's name spelled from the vocabulary, not copied, is a word the
/// text says, where the text names a place ("in Arlington, Virginia,
/// USA": not `baltimore`, which train's employers in Baltimore put in the
/// vocabulary); a text that names none leaves it to SARA, which puts
/// "Johns Hopkins Hospital" in Baltimore, Maryland, USA. A name is one
/// word, bare or quoted (`baltimore`, `"virginia"`); a description
/// (`"private home"` for "in her home") is no place's name.
fn placed(v: &Value, slot: Slot, origin: Option<Origin>) -> bool {
    let Some(o) = origin.filter(|o| slot == Slot::Place && o.copy.is_none()) else { return true };
    let (Value::Name(place) | Value::Text(place)) = v else { return true };
    if place.contains(' ') {
        return true;
    }
    !o.mentions.iter().any(|m| m.kind == MentionKind::Place)
        || o.mentions.iter().any(|m| matches!(&m.value, Value::Name(w) | Value::Text(w) if w.eq_ignore_ascii_case(place)))
}

/// A fact that a section applies (`s151_b_applies`: "entitled to an
/// exemption under section 151(b)") names a section the text cites, or
/// one within or above it.
fn applies_cited(pred: &str, mentions: &[Mention]) -> bool {
    let Some(section) = pred.strip_suffix("_applies").and_then(SectionId::parse) else { return true };
    mentions.iter().filter_map(Mention::citation).filter_map(SectionId::parse).any(|c| c.is_within(&section) || section.is_within(&c))
}

/// A copied integer keeps the kind its mention has: a year is no amount,
/// a `$` amount no year; and the year of `query tax` is the one the
/// question asks ("How much tax does Alice have to pay in 2017?"), not
/// another year of the text or of the vocabulary, unless the question
/// gives none. Without an origin (grammar tests), any token fits.
fn origin_fits(origin: Option<Origin>, slot: Slot) -> bool {
    let Some(o) = origin else { return true };
    match (slot, o.copy) {
        (Slot::TaxYear, copy) => {
            let asked = asked_years(o.mentions).next().is_some();
            copy.map_or(!asked, |m| year_like(m) && (m.in_question || !asked))
        }
        (Slot::Amount, Some(m)) => !m.kind.is_calendar(),
        (Slot::Year, Some(m)) => year_like(m),
        _ => true,
    }
}

impl<'a> Expected<'a> {
    fn dead() -> Expected<'a> {
        Expected::default()
    }

    /// With `on`, a query argument that is a name is one the question
    /// mentions: "Section 2(b)(1)(A) applies to Bob in 2018" asks
    /// `s2_b_1_A bob _ _ 2018`, leaving open whom the text says Bob keeps
    /// a household for. 237 of the train split's 256 queries keep to it
    /// (the others are listed in `experiments/tests/decoding_grammar.rs`).
    pub fn names_from_question(mut self, on: bool) -> Self {
        self.question_names = on;
        self
    }

    /// With `on`, a sentence's facts (outside the query) name only people
    /// the sentence in focus mentions (its mentions are `in_question`),
    /// alone or in an id (`alice_s_house`): "Alice and Charlie live in a
    /// home maintained by Alice" gave `purpose = bob_s_house`. The caller
    /// leaves it off where the sentence refers back ("She", "their son",
    /// "her spouse"): of the train split's gold sentence units, 1,622
    /// people named are mentioned in their sentence, 34 not, nearly all
    /// after such a word.
    pub fn sentence_names(mut self, on: bool) -> Self {
        self.sentence_names = on;
        self
    }

    /// Whether a name is one the sentence in focus mentions, as far as
    /// [`Expected::sentence_names`] goes: each first name in it.
    fn said_in_sentence(&self, name: &str, origin: Option<Origin>) -> bool {
        let Some(o) = origin.filter(|_| self.sentence_names && !self.in_query) else { return true };
        name.split('_').filter(|p| is_first_name(p)).all(|p| o.mentions.iter().any(|m| m.in_question && matches!(&m.value, Value::Name(w) if w.eq_ignore_ascii_case(p))))
    }

    /// With `on`, a query names no year, nor a day of one, that the
    /// question does not mention: "Bob bears a relationship to Alice under
    /// section 152(c)(2)" asks `s152_c_2 bob alice _ _`, and beams bounded
    /// the relationship by the text's 2014 (`… & first_day 2014
    /// First_day & …`). A year or a date, copied from the text or from the
    /// vocabulary, is one of a year the question gives (s3306_c_5 asks
    /// the day the text's service began, of the question's year);
    /// `query tax`'s year keeps to [`origin_fits`]. 254 of the train
    /// split's 256 gold queries keep to it; the other two are an amount
    /// of $2000 and `tax` of a question without a year, both let through.
    pub fn years_from_question(mut self, on: bool) -> Self {
        self.question_years = on;
        self
    }

    /// Whether a query's value keeps to the question's years, as far as
    /// [`Expected::years_from_question`] goes.
    fn year_asked(&self, v: &Value, slot: Slot, origin: Option<Origin>) -> bool {
        let Some(o) = origin.filter(|_| self.question_years && self.in_query && slot != Slot::TaxYear) else { return true };
        let calendar = |m: &Mention| m.kind.is_calendar() || m.kind == MentionKind::Date;
        let dated = match o.copy {
            Some(m) => calendar(m) && !m.in_question,
            None => matches!(v, Value::Date(_)) || slot == Slot::Year,
        };
        let asked = |y: i32| o.mentions.iter().any(|m| m.in_question && calendar(m) && year_of(&m.value) == Some(y));
        !dated || year_of(v).is_none_or(asked)
    }

    /// With `shared`, a query goal names a person in one place only, but
    /// where some rule's head fills both places with one variable: the
    /// statutes' places are distinct roles (a taxpayer and a dependent, an
    /// employer and an employee; `s152_b_1` says `T \== X`), and SARA's
    /// queries keep to it (`s3306_b _ e2 e1 alice bob _ _ _ _ alice bob`
    /// repeats the places its rule's head repeats). Beams had
    /// `s2_b_1_A_ii bob bob 2017` for "... applies to Bob in 2017". Since
    /// decoder version 19 the same holds of every value, numbers and dates
    /// too: beams had `s1_d alice _ 2017 14836 14836`; since version 35,
    /// of variables too ([`Expected::new_var_in_goal`]).
    pub fn distinct_values(mut self, shared: Option<&'a SharedPlaces>) -> Self {
        self.shared = shared;
        self
    }

    /// Whether a value is new to the goal's places before, or repeats one
    /// in a place a rule shares with it ([`Expected::distinct_values`]);
    /// outside a query goal, always.
    fn new_in_goal(&self, value: &Value) -> bool {
        self.new_to_places(|g| &g.values, |v: &Value| v == value)
    }

    /// As [`Expected::new_in_goal`], of a variable: no gold goal of the 376
    /// cases names one twice (a variable joins goals), and beams asked
    /// `s152_d_2_H alice bob 2015 End Start Start`.
    fn new_var_in_goal(&self, var: &str) -> bool {
        self.new_to_places(|g| &g.vars, |v: &String| v == var)
    }

    fn new_to_places<T>(&self, said: impl Fn(&GoalAt) -> &[(usize, T)], is_x: impl Fn(&T) -> bool) -> bool {
        let (Some(shared), Some(goal)) = (self.shared, &self.goal) else { return true };
        let pairs = shared.get(&goal.pred).map_or(&[][..], Vec::as_slice);
        !said(goal).iter().any(|(j, v)| is_x(v) && !pairs.contains(&(*j, goal.place)))
    }

    /// Whether a name copied (or from the vocabulary) may stand here: no
    /// predicate's nor role's ([`reserved_word`]), and
    /// as far as the question goes ([`Expected::names_from_question`]).
    fn name_fits(&self, name: &Value, origin: Option<Origin>) -> bool {
        !matches!(name, Value::Name(n) if reserved_word(n)) && self.question_allows(origin, |v| v == name)
    }

    /// Whether a bare word may stand here as a name: as
    /// [`Expected::name_fits`] and [`Expected::new_in_goal`] of
    /// `Value::Name(s)`, compared in place.
    fn bare_name_fits(&self, s: &str, origin: Option<Origin>) -> bool {
        let is_s = |v: &Value| matches!(v, Value::Name(n) if n == s);
        !reserved_word(s) && self.new_to_places(|g| &g.values, is_s) && self.question_allows(origin, is_s) && self.said_in_sentence(s, origin)
    }

    /// Whether a query may name the value `is_x` picks, as far as the
    /// question goes ([`Expected::names_from_question`]).
    fn question_allows(&self, origin: Option<Origin>, is_x: impl Fn(&Value) -> bool) -> bool {
        !self.in_query || !self.question_names || origin.is_none_or(|o| o.mentions.iter().any(|m| m.in_question && is_x(&m.value)))
    }

    /// Whether a value may fill `slot`.
    fn value_allowed(&self, v: &Value, slot: Slot, origin: Option<Origin>) -> bool {
        value_fits(v, slot)
            && origin_fits(origin, slot)
            && placed(v, slot, origin)
            && self.new_in_goal(v)
            && (!is_name(v) || (self.name_fits(v, origin) && grounded(v, origin)))
            && !matches!(v, Value::Name(n) if !self.said_in_sentence(n, origin))
            && self.year_asked(v, slot, origin)
    }

    /// Whether the output may end here.
    pub fn allows_end(&self) -> bool {
        self.end
    }

    /// Whether `next` may come, whatever the case's mentions.
    pub fn allows(&self, next: &Token) -> bool {
        self.classes.iter().any(|c| self.class_allows(c, next, None))
    }

    /// Whether `next` may come in a case with these mentions, copied from
    /// `mentions[i]` (`copy` Some(i)) or from the vocabulary (None).
    pub fn allows_from(&self, next: &Token, mentions: &[Mention], copy: Option<usize>) -> bool {
        let origin = Origin { mentions, copy: copy.map(|i| &mentions[i]) };
        self.classes.iter().any(|c| self.class_allows(c, next, Some(origin)))
    }

    /// With `on` (the default), a query goal whose predicate has a year's
    /// place at its arity names a year the question mentions, if it
    /// mentions one ("... for the year 2015" asks `s152_d_2_H alice bob
    /// 2015 _ _ _`, not `s152_d_2_H alice bob _ _ _ _`), as every gold
    /// query does.
    pub fn asked_year(mut self, on: bool) -> Self {
        self.asked_year_off = !on;
        self
    }

    /// With `on` (the default), a query ends only once one of its goals
    /// asks, for a section the question cites, the nearest the rules
    /// define ([`nearest_defined`]), as all 276 citing gold queries do;
    /// where the first climbs higher (`s151` for "section 151(d)(5)(A)"),
    /// a later goal still can.
    pub fn nearest_section(mut self, on: bool) -> Self {
        self.nearest_off = !on;
        self
    }

    /// Whether the query may end, by [`Expected::nearest_section`].
    fn asks_a_cited_section(&self, origin: Option<Origin>) -> bool {
        let (Some(signatures), Some(o), true, false) = (self.signatures, origin, self.in_query, self.nearest_off) else { return true };
        let mut asked = cited(o.mentions).filter_map(|c| nearest_defined(c, signatures)).peekable();
        asked.peek().is_none() || asked.any(|s| self.heads.iter().any(|h| h == s))
    }

    /// Whether the query goal the prefix ends in may end, by
    /// [`Expected::asked_year`].
    fn goal_names_an_asked_year(&self, origin: Option<Origin>) -> bool {
        let (Some(goal), Some(o), false) = (&self.goal, origin, self.asked_year_off) else { return true };
        let Some(types) = self.signatures.and_then(|a| a.get(&goal.pred)).and_then(|a| a.iter().find(|t| t.len() == goal.place)) else { return true };
        !types.iter().any(is_year_place) || goal.names_one_of(asked_years(o.mentions))
    }

    /// Whether `next` may not fill the query goal's next place because a
    /// year the question mentions is due there: it is the last year's
    /// place the goal can have (in every arity still open) and none of
    /// those years is named yet, so without one [`Expected::asked_year`]
    /// would leave the goal no end.
    fn year_due_refuses(&self, next: &Token, origin: Option<Origin>) -> bool {
        let (Some(goal), Some(o), false) = (&self.goal, origin, self.asked_year_off) else { return false };
        let Some(arities) = self.signatures.and_then(|a| a.get(&goal.pred)) else { return false };
        let mut longer = arities.iter().filter(|t| t.len() > goal.place).peekable();
        let due = longer.peek().is_some() && longer.all(|t| is_year_place(&t[goal.place]) && !t[goal.place + 1..].iter().any(is_year_place));
        due && !goal.names_one_of(asked_years(o.mentions)) && !matches!(next, Token::Value(v) if asked_years(o.mentions).any(|y| y == v))
    }

    /// An event id, numbered at most one past those seen.
    fn fresh_enough(&self, s: &str) -> bool {
        event_number(s).is_none_or(|n| n <= self.max_id + 1)
    }

    fn in_scope(&self, v: &str) -> bool {
        is_var(v) && (self.any_var || self.scope.iter().any(|s| s == v))
    }

    fn class_allows(&self, class: &Class, next: &Token, origin: Option<Origin>) -> bool {
        if matches!(next, Token::Sym(s) if !self.fresh_enough(s)) {
            return false;
        }
        let w = word(next);
        let sym = match next {
            Token::Sym(s) => Some(s.as_str()),
            _ => None,
        };
        match class {
            Class::Newline => sym == Some("\n") && self.goal_names_an_asked_year(origin) && self.asks_a_cited_section(origin),
            Class::Word(x) => w == Some(*x) && (*x != "&" || self.goal_names_an_asked_year(origin)),
            Class::Value(slot) => matches!(next, Token::Value(v) if self.value_allowed(v, *slot, origin)),
            Class::RangeEnd(from) => matches!(next, Token::Value(Value::Int(to)) if to >= from),
            Class::Term(_) if self.year_due_refuses(next, origin) => false,
            Class::Term(slot) => {
                if let Token::Value(v) = next {
                    return self.value_allowed(v, *slot, origin);
                }
                let Some(s) = sym else { return false };
                if s == "_" || self.in_scope(s) {
                    return s == "_" || self.new_var_in_goal(s);
                }
                // A bare word (an id, or a vocabulary word such as
                // `disability` used as a name) is a name; a goal's head
                // word is none (beams asked `s152_d_2_H alice bob 2018
                // before Start Start`).
                let bare = s.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
                    && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !LINE_WORDS.contains(&s);
                let date_word = DATE_WORDS.contains(&s);
                if bare && event_id(s).is_none() && !date_word && !self.bare_name_fits(s, origin) {
                    return false;
                }
                match slot {
                    Slot::Any => bare || s == "[",
                    Slot::Date => date_word,
                    Slot::Number | Slot::Person | Slot::Year | Slot::TaxYear | Slot::Amount => false,
                    Slot::Participant => (bare && !date_word) || s == "[",
                    Slot::Party | Slot::Place => (bare && !date_word && event_id(s).is_none()) || s == "[",
                    Slot::Event => event_id(s) == Some(false),
                }
            }
            Class::NewVar => sym.is_some_and(|s| is_var(s) && !self.scope.iter().any(|v| v == s)),
            Class::Var => sym.is_some_and(|s| self.in_scope(s)),
            Class::Splice => sym.and_then(|s| s.strip_prefix('{')?.strip_suffix('}')).is_some_and(|v| self.in_scope(v)),
            Class::EventId => sym.is_some_and(|s| s == "_" || event_id(s).is_some()),
            Class::FreshTerm(slot, taken, span) => !taken.contains(next) && within(next, span) && self.class_allows(&Class::Term(*slot), next, origin),
            Class::Role { ended } => sym.and_then(Role::from_name).is_some_and(|r| !(*ended && r == Role::End)),
            Class::FactHead => w.is_some_and(|w| {
                w == "event"
                    || w == "for"
                    || EventKind::from_name(w).is_some()
                    || (Predicate::parse(w).is_some() && w != "tax" && origin.is_none_or(|o| applies_cited(w, o.mentions)))
            }),
            Class::GoalHead { first } => w.is_some_and(|w| {
                w != "tax"
                    && (matches!(w, "unbound" | "first_day" | "before")
                        || self.signatures.map_or(Predicate::parse(w).is_some(), |a| a.contains_key(w)))
                    && origin.is_none_or(|o| cited_or_above(w, *first, o.mentions))
            }),
            Class::Tax => w == Some("tax") && origin.is_none_or(|o| cited(o.mentions).next().is_none()),
        }
    }
}

/// Walks a line's tokens; running out yields what was wanted next.
struct Cursor<'a> {
    toks: &'a [Token],
    pos: usize,
}

type Step = Result<(), Vec<Class>>;

/// A dead end: the prefix left the grammar.
fn dead<T>() -> Result<T, Vec<Class>> {
    Err(Vec::new())
}

impl<'a> Cursor<'a> {
    fn next(&mut self, wanted: &[Class]) -> Result<&'a Token, Vec<Class>> {
        let t = self.toks.get(self.pos).ok_or_else(|| wanted.to_vec())?;
        self.pos += 1;
        Ok(t)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    fn word(&mut self, w: &'static str) -> Step {
        match word(self.next(&[Class::Word(w)])?) {
            Some(x) if x == w => Ok(()),
            _ => dead(),
        }
    }

    fn value(&mut self, slot: Slot) -> Result<&'a Value, Vec<Class>> {
        match self.next(&[Class::Value(slot)])? {
            Token::Value(v) if value_fits(v, slot) => Ok(v),
            _ => dead(),
        }
    }

    fn var(&mut self) -> Step {
        match self.next(&[Class::Var])? {
            Token::Sym(s) if is_var(s) => Ok(()),
            _ => dead(),
        }
    }

    fn splice(&mut self) -> Step {
        match self.next(&[Class::Splice])? {
            Token::Sym(x) if x.starts_with('{') => Ok(()),
            _ => dead(),
        }
    }

    /// One term of `slot`.
    fn term(&mut self, slot: Slot) -> Step {
        let t = self.next(&[Class::Term(slot)])?;
        let s = match t {
            // `alice_employer_{D}`: a name spliced with a group's variable.
            Token::Value(Value::Name(n)) if n.ends_with('_') => return self.splice(),
            Token::Value(_) => return Ok(()),
            Token::Sym(s) => s,
        };
        match s.as_str() {
            "first_day" | "last_day" => {
                self.word("(")?;
                self.var()?;
                self.word(")")
            }
            "within" => {
                self.word("(")?;
                self.value(Slot::Date)?;
                self.word(",")?;
                self.value(Slot::Date)?;
                self.word(")")
            }
            "[" => {
                if word(self.next(&[Class::Word("]"), Class::Value(Slot::Any)])?) == Some("]") {
                    return Ok(());
                }
                self.pos -= 1;
                loop {
                    self.value(Slot::Any)?;
                    match word(self.next(&[Class::Word(","), Class::Word("]")])?) {
                        Some("]") => return Ok(()),
                        Some(",") => {}
                        _ => return dead(),
                    }
                }
            }
            s if event_id(s) == Some(true) => self.splice(),
            _ => Ok(()),
        }
    }
}

/// Which part of a case's linear form an output is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Part {
    /// Facts, then the query.
    #[default]
    Whole,
    /// Facts only (those of one sentence); may be empty.
    Facts,
    /// The query line only.
    Query,
}

/// What may follow `prefix` in an output that is `part` of a linear form.
pub fn expected_part<'a>(prefix: &[Token], signatures: Option<&'a Signatures>, part: Part) -> Expected<'a> {
    let mut exp = expected(prefix, signatures);
    let at_line_start = prefix.last().is_none_or(|t| matches!(t, Token::Sym(s) if s == "\n"));
    match part {
        Part::Whole => {}
        Part::Facts => {
            exp.classes.retain(|c| *c != Class::Word("query"));
            // No query can have come: the word is never allowed here.
            exp.end |= at_line_start && exp.scope.is_empty();
        }
        Part::Query if prefix.is_empty() => exp.classes = vec![Class::Word("query")],
        // The query names events of the facts decoded apart (`query
        // s3306_b_10_A e5 e1 …`, numbered as in the whole case).
        Part::Query => exp.max_id = u32::MAX - 1,
    }
    exp
}

/// The first and last dates a value may take (either open).
type Span = (Option<NaiveDate>, Option<NaiveDate>);

/// Whether a token, if a date, lies within the span.
fn within(t: &Token, (first, last): &Span) -> bool {
    let Token::Value(Value::Date(d)) = t else { return true };
    first.is_none_or(|f| *d >= f) && last.is_none_or(|l| *d <= l)
}

/// What may follow `prefix` (the tokens decoded so far).
///
/// Complexity: linear in the prefix (the beam search asks once per live
/// hypothesis and step, then tests each candidate token in constant time).
pub fn expected<'a>(prefix: &[Token], signatures: Option<&'a Signatures>) -> Expected<'a> {
    let newline = |t: &Token| matches!(t, Token::Sym(s) if s == "\n");
    let line_start = prefix.iter().rposition(newline).map_or(0, |i| i + 1);
    // Scope from the finished lines.
    let mut scope: Vec<String> = Vec::new();
    let mut query_done = false;
    for line in prefix[..line_start].split(newline) {
        match line.first().and_then(word) {
            Some("for") => scope.extend(line.get(1).and_then(word).map(String::from)),
            Some("}") => {
                scope.pop();
            }
            Some("query") => query_done = true,
            _ => {}
        }
    }
    let line = &prefix[line_start..];
    let mut exp = Expected { scope, signatures, max_id: max_event(prefix), ..Expected::default() };
    if query_done {
        // The query is the last line.
        exp.end = line.is_empty();
        return exp;
    }
    if line.is_empty() {
        exp.classes.push(Class::FactHead);
        if exp.scope.is_empty() {
            exp.classes.push(Class::Word("query"));
        } else {
            exp.classes.push(Class::Word("}"));
        }
        return exp;
    }
    let head = word(&line[0]).unwrap_or_default();
    if head == "query" {
        exp.any_var = true;
        exp.in_query = true;
        // A goal's head opens the line and follows each `&`.
        let starts = std::iter::once(1).chain(line.iter().enumerate().filter(|(_, t)| word(t) == Some("&")).map(|(i, _)| i + 1));
        exp.heads = starts.filter_map(|i| line.get(i).and_then(word)).map(String::from).collect();
    }
    let mut c = Cursor { toks: &line[1..], pos: 0 };
    let wanted = match head {
        "}" => Err(vec![Class::Newline]),
        "for" => for_line(&mut c),
        "query" => query_line(&mut c, signatures, &mut exp.goal),
        h if h == "event" || EventKind::from_name(h).is_some() => event_line(&mut c),
        _ => loop {
            if c.at_end() {
                break Err(vec![Class::Term(Slot::Any), Class::Newline]);
            }
            if let Err(w) = c.term(Slot::Any) {
                break Err(w);
            }
        },
    };
    match wanted {
        Err(mut classes) if !classes.is_empty() => {
            let restated = || EventKind::from_name(head).is_some() && states_again(&prefix[..line_start], line);
            if (head == "query" && !no_lone_variable(line)) || (classes.contains(&Class::Newline) && restated()) {
                // `&` stays: a later goal may name the variable again; and
                // an event may take one more role.
                classes.retain(|c| *c != Class::Newline);
            }
            exp.classes = classes;
            exp
        }
        _ => Expected::dead(),
    }
}

fn for_line(c: &mut Cursor) -> Step {
    match c.next(&[Class::NewVar])? {
        Token::Sym(s) if is_var(s) => {}
        _ => return dead(),
    }
    c.word("in")?;
    match c.next(&[Class::Value(Slot::Number), Class::Word("[")])? {
        Token::Value(Value::Int(from)) => {
            c.word("..")?;
            match c.next(&[Class::RangeEnd(*from)])? {
                Token::Value(Value::Int(to)) if to >= from => {}
                _ => return dead(),
            }
        }
        t if word(t) == Some("[") => {
            c.pos -= 1;
            c.term(Slot::Any)?;
        }
        _ => return dead(),
    }
    c.word("{")?;
    Err(vec![Class::Newline])
}

fn event_line(c: &mut Cursor) -> Step {
    match c.next(&[Class::EventId])? {
        Token::Sym(s) => match event_id(s) {
            Some(true) => c.splice()?,
            Some(false) => {}
            None if s == "_" => {}
            None => return dead(),
        },
        _ => return dead(),
    }
    // Each role's one-token values so far, and whether the event ended.
    let mut said: Vec<(Role, &Token)> = Vec::new();
    let mut ended = false;
    loop {
        let t = c.next(&[Class::Role { ended }, Class::Newline])?;
        let Some(role) = word(t).and_then(Role::from_name) else { return dead() };
        c.word("=")?;
        if c.at_end() {
            // A role names a value once, and an agent is not the patient.
            let counterpart = match role {
                Role::Agent => Some(Role::Patient),
                Role::Patient => Some(Role::Agent),
                _ => None,
            };
            let taken = said.iter().filter(|(r, _)| *r == role || Some(*r) == counterpart).map(|(_, v)| (*v).clone()).collect();
            let date = |r: Role| said.iter().find_map(|(x, t)| match t {
                Token::Value(Value::Date(d)) if *x == r => Some(*d),
                _ => None,
            });
            // An event ends no earlier than it starts (so every gold event).
            let span = match role {
                Role::End => (date(Role::Start), None),
                Role::Start => (None, date(Role::End)),
                _ => (None, None),
            };
            return Err(vec![Class::FreshTerm(slot_of(role), taken, span)]);
        }
        let at = c.pos;
        c.term(slot_of(role))?;
        if c.pos == at + 1 {
            said.push((role, &c.toks[at]));
        }
        ended |= role == Role::End;
    }
}

fn query_line(c: &mut Cursor, signatures: Option<&Signatures>, at: &mut Option<GoalAt>) -> Step {
    if c.at_end() && signatures.is_none_or(|a| a.contains_key("tax")) {
        return Err(vec![Class::GoalHead { first: true }, Class::Tax]);
    }
    if c.toks.first().and_then(word) == Some("tax") {
        c.pos += 1;
        c.value(Slot::Person)?;
        c.value(if signatures.is_some() { Slot::TaxYear } else { Slot::Number })?;
        return Err(vec![Class::Newline]);
    }
    let mut first = true;
    loop {
        let head = c.next(&[Class::GoalHead { first }])?;
        first = false;
        match word(head) {
            Some("unbound") => c.var()?,
            Some("first_day") => {
                c.value(Slot::Year)?;
                c.var()?;
            }
            Some("before") => {
                c.term(Slot::Any)?;
                c.term(Slot::Any)?;
            }
            Some(pred) => {
                let allowed: Option<&Vec<Vec<ArgType>>> = match signatures {
                    Some(a) => Some(a.get(pred).ok_or_else(Vec::new)?),
                    None => None,
                };
                let mut args = 0;
                let mut values = Vec::new();
                let mut vars = Vec::new();
                loop {
                    let more = allowed.is_none_or(|a| a.iter().any(|s| s.len() > args));
                    let stop = allowed.is_none_or(|a| a.iter().any(|s| s.len() == args));
                    // The argument's slot: its types in every arity that has it.
                    let slot = allowed.map_or(Slot::Any, |a| {
                        slot_of_type(a.iter().filter_map(|s| s.get(args)).fold(ArgType::NONE, |t, u| t.union(*u)))
                    });
                    if c.at_end() {
                        *at = Some(GoalAt { pred: pred.to_string(), place: args, values, vars });
                        let mut w = Vec::new();
                        if more {
                            w.push(Class::Term(slot));
                        }
                        if stop {
                            w.extend([Class::Newline, Class::Word("&")]);
                        }
                        return Err(w);
                    }
                    if stop && word(&c.toks[c.pos]) == Some("&") {
                        break;
                    }
                    if !more {
                        return dead();
                    }
                    let from = c.pos;
                    c.term(slot)?;
                    if c.pos == from + 1 {
                        match &c.toks[from] {
                            Token::Sym(v) if is_var(v) => vars.push((args, v.clone())),
                            t => values.extend(token_value(t).map(|v| (args, v))),
                        }
                    }
                    args += 1;
                }
                c.pos += 1;
                continue;
            }
            None => return dead(),
        }
        let t = c.next(&[Class::Newline, Class::Word("&")])?;
        if word(t) != Some("&") {
            return dead();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::{lex, render};

    fn ok(prefix: &str, next: &str, signatures: Option<&Signatures>) -> bool {
        let next = if next == "\n" { Token::Sym("\n".into()) } else { lex(next).remove(0) };
        expected(&lex(prefix), signatures).allows(&next)
    }

    #[test]
    fn a_goal_names_a_person_once_but_where_a_rule_shares_the_places() {
        let shared: SharedPlaces = [("s3306_b".to_string(), vec![(1, 3)])].into();
        let next = |prefix: &str, name: &str, on: bool| expected(&lex(prefix), None).distinct_values(on.then_some(&shared)).allows(&lex(name)[0]);
        assert!(!next("query s2_b_1_A_ii bob", "bob", true), "bob is not his own dependent");
        assert!(next("query s2_b_1_A_ii bob", "bob", false), "off, as before");
        assert!(next("query s2_b_1_A_ii bob", "charlie", true) && next("query s2_b_1_A_ii bob", "_", true));
        assert!(next("query s3306_b _ alice bob", "alice", true), "places 1 and 3 are shared");
        assert!(!next("query s3306_b _ alice bob", "bob", true));
        assert!(next("query s2_b_1_A_ii bob _ 2017 & s152_b_1 charlie", "bob", true), "each goal apart");
        assert!(!next("query s1_d alice _ 2017 14836", "14836", true), "an amount once, as a name");
        assert!(next("query s1_d alice _ 2017 14836", "14836", false));
        assert!(!next("query s151_d_3_A alice 1900", "1900", true) && next("query s151_d_3_A alice 1900", "_", true));
        assert!(!next("query s3306_c_10_B e2 _ alice 2017-03-01 & s3306_c e2 2017-03-01", "2017-03-01", true), "dates too");
        assert!(next("query s3306_c_10_B e2 _ alice 2017-03-01 & s3306_c", "2017-03-01", true), "each goal apart");
        assert!(!next("query s152_d_2_H alice bob 2015 End Start", "Start", true), "a variable once too");
        assert!(next("query s152_d_2_H alice bob 2015 End Start", "Start", false));
        assert!(next("query s152_d_2_H alice bob 2015 End Start & s152_d_2_H alice bob 2015 End", "Start", true), "each goal apart");
        assert!(!next("query s152_d_2_H alice bob 2018", "before", true) && !next("query s152_d_2_H alice bob 2018", "unbound", false), "a goal's head word is no name");
    }

    #[test]
    fn a_query_names_a_variable_twice_or_not_at_all() {
        assert!(!ok("query s151_d_3_A alice 1800 Start End _ _ 2015", "\n", None), "Start and End are SARA's `_`");
        assert!(ok("query s151_d_3_A alice 1800 Start End _ _ 2015", "&", None), "a later goal may name them again");
        assert!(ok("query s152_d_2_D alice bob Start End & unbound End & first_day 2018 First & before Start First", "\n", None));
        assert!(!ok("query s152_d_2_D alice bob Start End & unbound End", "\n", None));
        assert!(ok("query s151_d_3_A alice _ _ _ 2000 1800 2015", "\n", None));
    }

    #[test]
    fn a_first_day_is_a_years() {
        assert!(ok("query s152_d_2_D alice bob Start End & unbound End & first_day", "2018", None));
        assert!(!ok("query s152_d_2_D alice bob Start End & unbound End & first_day", "150000", None));
    }

    #[test]
    fn an_event_is_stated_once() {
        let before = "residence e1 agent = bob patient = alice_house start = 2019-01-01\n";
        assert!(!ok(&format!("{before}residence e2 patient = alice_house agent = bob start = 2019-01-01"), "\n", None), "the same, roles in another order");
        assert!(ok(&format!("{before}residence e2 patient = alice_house agent = bob start = 2019-01-01"), "end", None), "one more role");
        assert!(ok(&format!("{before}residence e2 agent = alice patient = alice_house start = 2019-01-01"), "\n", None));
        assert!(ok(&format!("{before}payment e2 agent = bob patient = alice_house start = 2019-01-01"), "\n", None), "another kind");
        let group = "for Y in 2018 .. 2117 {\npayment e1_{Y} start = first_day ( Y )\n";
        assert!(ok(&format!("{group}payment e2_{{Y}} start = first_day ( Y )"), "\n", None), "a group's events are told apart by their ids");
        assert!(ok("plan e1\nplan e2", "\n", None), "as are events without roles");
    }

    #[test]
    fn an_event_ends_no_earlier_than_it_starts() {
        assert!(!ok("birth e1 agent = bob start = 1955-03-03 end =", "1950-03-02", None));
        assert!(ok("birth e1 agent = bob start = 1955-03-03 end =", "1955-03-03", None));
        assert!(!ok("income e1 end = 2016-12-31 start =", "2019-11-25", None));
        assert!(ok("income e1 end = 2016-12-31 start =", "2016-01-01", None));
    }

    #[test]
    fn a_predicate_names_no_one() {
        assert!(!ok("query s1_d", "tax", None) && ok("query s1_d", "alice", None));
        assert!(!ok("s151_c alice", "s151_c", None) && !ok("payment e1 agent =", "gross_income", None));
        assert!(ok("payment e1 reason =", "disability", None), "an event's kind may be a value");
    }

    #[test]
    fn a_role_names_no_one() {
        assert!(!ok("query s152_a bob alice 2014", "end", None) && ok("query s152_a bob alice 2014", "_", None));
        assert!(!ok("s151_c alice", "agent", None) && !ok("payment e1 purpose =", "amount", None));
        assert!(ok("payment e1 purpose =", "alice_s_house", None));
    }

    #[test]
    fn roles_take_values_of_their_type() {
        assert!(ok("payment e1 start =", "2017-12-31", None));
        assert!(!ok("payment e1 start =", "2017", None), "a year is not a date");
        assert!(ok("payment e1 amount =", "2017", None));
        assert!(!ok("payment e1 amount =", "alice", None));
        assert!(!ok("payment e1 agent =", "2017-01-01", None));
        assert!(ok("payment e1 agent =", "alice", None));
        assert!(!ok("payment e1 agent", "alice", None), "a role is followed by =");
    }

    #[test]
    fn groups_open_close_and_scope_their_variable() {
        assert!(ok("for Y in 2017 ..", "2117", None));
        assert!(!ok("for Y in 2017 ..", "2117-01-01", None));
        assert!(!ok("for Y in 2017 ..", "2000", None), "an empty range");
        assert!(ok("for Y in 2017 .. 2117 {\npayment e3_", "{Y}", None));
        assert!(!ok("for Y in 2017 .. 2117 {\npayment e3_", "{Z}", None));
        assert!(ok("for Y in 2017 .. 2117 {\npayment e3_{Y} start =", "first_day", None));
        assert!(ok("for Y in 2017 .. 2117 {\n", "}", None));
        assert!(!ok("payment e1\n", "}", None));
        assert!(ok("for Y in 2017 .. 2117 {\npayment e1\n}\n", "query", None));
        assert!(!ok("for Y in 2017 .. 2117 {\npayment e1\n", "query", None), "an open group");
        assert!(!expected(&lex("payment e1\n"), None).allows_end(), "no query yet");
        assert!(!ok("for Y in 2017 .. 2117 {\n}\npayment e3_", "{Y}", None), "Y out of scope");
    }

    #[test]
    fn an_event_names_a_value_once_ends_once_is_no_agent_and_no_one_its_own_patient() {
        assert!(ok("payment e1 agent = alice patient =", "bob", None));
        assert!(!ok("payment e1 patient = alice patient =", "alice", None), "the same patient twice");
        assert!(ok("payment e1 patient = alice patient =", "bob", None));
        assert!(!ok("payment e1 amount = 60 amount =", "60", None));
        assert!(ok("payment e1 end = 2017-12-31", "start", None));
        assert!(!ok("payment e1 end = 2017-12-31", "end", None), "an event ends once");
        assert!(!ok("payment e1 agent = alice patient =", "alice", None), "an agent is not the patient");
        assert!(!ok("residence e2 patient = alice agent =", "alice", None));
        assert!(ok("payment e1 agent = alice patient = bob agent =", "charlie", None));
        assert!(ok("payment e1 agent = alice
payment e2 purpose =", "e1", None));
        assert!(!ok("payment e1 agent = alice
payment e2 agent =", "e1", None), "an event is no agent");
    }

    #[test]
    fn the_query_asks_first_a_section_the_question_cites_or_one_above_it() {
        let signatures: Signatures =
            [("s151_d_5", 2), ("s151_d_5_A", 2), ("s151_d_5_B", 2), ("s3306_c_10_A", 1), ("gross_income", 2), ("tax", 2)].map(|(p, n)| (p.to_string(), vec![vec![ArgType::ANY; n]])).into();
        let exp = expected(&lex("query"), Some(&signatures));
        let cite = |p: &str, in_question| Mention { value: Value::Name(p.into()), start: 0, end: 1, kind: MentionKind::Citation, others: Vec::new(), in_question };
        let asks = |p: &str, ms: &[Mention]| exp.allows_from(&Token::Sym(p.into()), ms, None);
        let question = [cite("s151_d_5_A", true)];
        assert!(asks("s151_d_5_A", &question) && asks("s151_d_5", &question), "the cited section and the one above");
        assert!(!asks("s151_d_5_B", &question) && !asks("s3306_c_10_A", &question));
        assert!(!asks("gross_income", &question) && !asks("tax", &question), "the first goal is the cited section");
        let second = expected(&lex("query s151_d_5 alice 2017 &"), Some(&signatures));
        assert!(second.allows_from(&Token::Sym("gross_income".into()), &question, None), "later goals may be auxiliary");
        let free = [cite("s151_d_5_A", false)];
        assert!(asks("s3306_c_10_A", &free) && asks("tax", &free) && asks("gross_income", &free), "a citation of the text only leaves the query free");
    }

    #[test]
    fn the_query_ends_once_a_goal_asks_the_nearest_defined_section_to_the_cited_one() {
        let signatures: Signatures = [("s151", 2), ("s151_d_5", 2), ("s3306_c_10_A", 1), ("s3306_c_10_A_i", 1)].map(|(p, n)| (p.to_string(), vec![vec![ArgType::ANY; n]])).into();
        let cite = |p: &str| [Mention { value: Value::Name(p.into()), start: 0, end: 1, kind: MentionKind::Citation, others: Vec::new(), in_question: true }];
        let ends = |prefix: &str, ms: &[Mention]| expected(&lex(prefix), Some(&signatures)).allows_from(&Token::Sym("\n".into()), ms, None);
        let undefined = cite("s151_d_5_A");
        assert!(ends("query s151_d_5 2000 2018", &undefined), "the nearest the rules define");
        assert!(!ends("query s151 alice 2000", &undefined), "a section further above");
        assert!(ends("query s151 alice 2000 & s151_d_5 2000 2018", &undefined), "a later goal asks it");
        assert!(expected(&lex("query s151 alice 2000"), Some(&signatures)).allows_from(&Token::Sym("&".into()), &undefined, None), "so the query still has an end");
        let defined = cite("s3306_c_10_A_i");
        assert!(!ends("query s3306_c_10_A e1", &defined) && ends("query s3306_c_10_A e1 & s3306_c_10_A_i alice", &defined));
        assert!(ends("query s151 alice 2000", &cite("s152_a")), "a section the rules do not define asks nothing of it");
        let off = expected(&lex("query s151 alice 2000"), Some(&signatures)).nearest_section(false);
        assert!(off.allows_from(&Token::Sym("\n".into()), &undefined, None), "turned off");
    }

    #[test]
    fn event_ids_come_in_order_of_first_appearance() {
        assert!(ok("", "payment", None) && ok("payment", "e1", None));
        assert!(!ok("payment", "e2", None), "e2 before e1");
        assert!(ok("payment e1 agent = alice\npayment", "e2", None));
        assert!(ok("payment e1 agent = alice\npayment e2 purpose =", "e3", None));
        assert!(!ok("payment e1 agent = alice\npayment e2 purpose =", "e4", None));
        assert!(ok("payment e1 agent = alice\nfor Y in 2017 .. 2018 {\npayment", "e2_", None));
    }

    #[test]
    fn an_earlier_sentences_event_goes_only_where_events_go() {
        assert!(ok("legal_separation e1 patient =", "prev_marriage", None));
        assert!(!ok("legal_separation e1 agent =", "prev_marriage", None));
        assert!(ok("legal_separation e1 agent =", "prevalent", None));
    }

    #[test]
    fn queries_end_the_output() {
        let signatures: Signatures = [("s1".to_string(), vec![vec![ArgType::ANY; 2]]), ("tax".to_string(), vec![vec![ArgType::NAME, ArgType::YEAR]])].into();
        let a = Some(&signatures);
        assert!(!ok("query s1 ann", "\n", a), "one argument is too few");
        assert!(ok("query s1 ann", "2017", a));
        assert!(ok("query s1 ann 2017", "\n", a));
        assert!(!ok("query s1 ann 2017", "5", a), "three arguments are too many");
        assert!(!ok("query", "s99", a), "unknown predicate");
        assert!(ok("query", "tax", a));
        assert!(!ok("query tax ann 2017\n", "payment", a));
        assert!(expected(&lex("query tax ann 2017\n"), a).allows_end());
    }

    #[test]
    fn a_goal_with_a_years_place_names_the_questions_year() {
        let (name, year, date) = (ArgType::NAME, ArgType::YEAR, ArgType::DATE);
        let signatures: Signatures = [("s152_d_2_H".to_string(), vec![vec![name, name, year, name, date, date]]), ("s3306_c_11".to_string(), vec![vec![ArgType::EVENT, name, name]])].into();
        let a = Some(&signatures);
        let m = |y: i64, in_question| Mention { value: Value::Int(y), start: 0, end: 4, kind: MentionKind::Year, others: Vec::new(), in_question };
        let ends = |prefix: &str, mentions: &[Mention]| {
            let exp = expected(&lex(prefix), a);
            (exp.allows_from(&Token::Sym("\n".into()), mentions, None), exp.allows_from(&Token::Sym("&".into()), mentions, None))
        };
        let asked = [m(2014, false), m(2015, true)];
        assert_eq!(ends("query s152_d_2_H alice bob _ _ _ _", &asked), (false, false), "the question's 2015 is left out");
        assert_eq!(ends("query s152_d_2_H alice bob 2014 _ _ _", &asked), (false, false), "a year of the text only");
        assert_eq!(ends("query s152_d_2_H alice bob 2015 _ _ _", &asked), (true, true));
        assert_eq!(ends("query s152_d_2_H alice bob _ _ _ _", &[m(2015, false)]), (true, true), "the question names no year");
        assert_eq!(ends("query s3306_c_11 e1 _ _", &asked), (true, true), "no year's place");
        assert!(ok("query s152_d_2_H alice bob _ _ _ _", "\n", a), "without mentions, as before");
        let place = expected(&lex("query s152_d_2_H alice bob"), a);
        assert!(!place.allows_from(&Token::Sym("_".into()), &asked, None), "the last year's place: the year is due");
        assert!(!place.allows_from(&lex("2014").remove(0), &asked, Some(0)), "the question's year, not the text's");
        assert!(place.allows_from(&lex("2015").remove(0), &asked, Some(1)));
        assert!(expected(&lex("query s152_d_2_H alice"), a).allows_from(&Token::Sym("_".into()), &asked, None), "not a year's place");
        let off = expected(&lex("query s152_d_2_H alice bob _ _ _ _"), a).asked_year(false);
        assert!(off.allows_from(&Token::Sym("\n".into()), &asked, None), "turned off");
    }

    #[test]
    fn query_arguments_keep_to_their_types() {
        let (name, year, number) = (ArgType::NAME, ArgType::YEAR, ArgType::NUMBER);
        let signatures: Signatures = [
            ("s1_a".to_string(), vec![vec![name, year, number, number]]),
            ("tax".to_string(), vec![vec![name, year]]),
        ]
        .into();
        let a = Some(&signatures);
        assert!(ok("query s1_a", "alice", a));
        assert!(!ok("query s1_a", "70117", a), "a number where a person goes");
        assert!(ok("query s1_a alice", "2017", a) && ok("query s1_a alice", "_", a));
        assert!(!ok("query s1_a alice", "2017-12-31", a), "a date is no year");
        assert!(!ok("query s1_a alice", "bob", a));
        assert!(ok("query s1_a alice 2017 _", "14836", a));
        assert!(ok("query s1_a alice 2017 _", "Tax", a), "a variable goes anywhere");
        assert!(!ok("query tax alice", "150000", a), "not a year");
        let m = |y: i64, kind, in_question| Mention { value: Value::Int(y), start: 0, end: 4, kind, others: Vec::new(), in_question };
        let y2017 = lex("2017").remove(0);
        let exp = expected(&lex("query s1_a alice _ _"), a);
        assert!(!exp.allows_from(&y2017, &[m(2017, MentionKind::Year, false)], Some(0)), "a copied year is no amount");
        assert!(exp.allows_from(&y2017, &[m(2017, MentionKind::Amount, false)], Some(0)) && exp.allows(&y2017));
        let exp = expected(&lex("query tax alice"), a);
        let text_and_question = [m(2017, MentionKind::Year, false), m(2018, MentionKind::Number, true)];
        assert!(!exp.allows_from(&y2017, &text_and_question, Some(0)), "the question asks 2018");
        assert!(!exp.allows_from(&y2017, &text_and_question, None), "nor from the vocabulary");
        assert!(exp.allows_from(&lex("2018").remove(0), &text_and_question, Some(1)), "the question's year, read as a number");
        assert!(exp.allows_from(&y2017, &[m(2017, MentionKind::Year, false)], Some(0)), "the question gives no year");
        assert!(!exp.allows_from(&y2017, &[m(2017, MentionKind::Amount, true)], Some(0)), "a $ amount is no tax year");
        let exp = expected(&lex("query s1_a alice"), a);
        assert!(!exp.allows(&lex("14836").remove(0)), "no year");
        assert!(!exp.allows_from(&y2017, &[m(2017, MentionKind::Amount, false)], Some(0)), "a $ amount is no year");
        assert!(exp.allows_from(&y2017, &[m(2017, MentionKind::Year, false)], Some(0)));
    }

    #[test]
    fn query_arguments_tell_events_from_names() {
        let signatures: Signatures = [("s3306_c_11".to_string(), vec![vec![ArgType::EVENT, ArgType::NAME, ArgType::NAME_OR_EVENT]])].into();
        let a = Some(&signatures);
        let facts = "service e1 agent = bob patient = alice\nquery s3306_c_11";
        assert!(ok(facts, "e1", a) && ok(facts, "_", a));
        assert!(!ok(facts, "alice", a), "a person where an event goes");
        assert!(!ok(&format!("{facts} e1"), "e1", a), "an event where a name goes");
        assert!(ok(&format!("{facts} e1 bob"), "e1", a) && ok(&format!("{facts} e1 bob"), "alice", a));
    }

    #[test]
    fn a_query_may_keep_to_the_names_the_question_mentions() {
        let signatures: Signatures = [("s2_b_1_A".to_string(), vec![vec![ArgType::NAME, ArgType::NAME, ArgType::YEAR]])].into();
        let a = Some(&signatures);
        let source = crate::example::source_text("Bob keeps a home for Charlie.", "Section 2(b)(1)(A) applies to Bob in 2018.");
        let mentions = crate::mentions::extract(&source);
        let copy = |name: &str| mentions.iter().position(|m| m.value == Value::Name(name.into()) && m.in_question == (name == "bob"));
        let name = |n: &str| Token::Value(Value::Name(n.into()));
        for (prefix, facts) in [("query s2_b_1_A", false), ("query s2_b_1_A bob", false), ("payment e1 agent", true)] {
            let prefix = if facts { format!("{prefix} =") } else { prefix.to_string() };
            let free = expected(&lex(&prefix), a);
            let asked = expected(&lex(&prefix), a).names_from_question(true);
            assert!(free.allows_from(&name("charlie"), &mentions, copy("charlie")), "{prefix}: the text's name, unconstrained");
            assert_eq!(asked.allows_from(&name("charlie"), &mentions, copy("charlie")), facts, "{prefix}: the text's name");
            assert_eq!(asked.allows_from(&Token::Sym("charlie".into()), &mentions, None), facts, "{prefix}: nor from the vocabulary");
            assert!(asked.allows_from(&name("bob"), &mentions, copy("bob")), "{prefix}: the question's name");
        }
        let asked = expected(&lex("query s2_b_1_A bob"), a).names_from_question(true);
        assert!(asked.allows_from(&Token::Sym("_".into()), &mentions, None), "an argument left open");
    }

    #[test]
    fn facts_name_only_people_and_sections_the_text_gives() {
        let mentions = crate::mentions::extract("Alice and Charlie live in a home. Alice is entitled to an exemption under section 151(b).");
        let name = |n: &str| Token::Value(Value::Name(n.into()));
        let role = expected(&lex("residence e1 agent = alice patient ="), None);
        assert!(role.allows_from(&name("alice_s_house"), &mentions, None), "a house of a person the text names");
        assert!(!role.allows_from(&name("dan_s_house"), &mentions, None), "a house of a Dan the text never names");
        assert!(role.allows(&name("dan_s_house")), "without the case's mentions, anything");
        let head = expected(&lex(""), None);
        let applies = |p: &str| head.allows_from(&Token::Sym(p.into()), &mentions, None);
        assert!(applies("s151_b_applies") && !applies("s151_c_applies"), "the section the text cites");
        assert!(applies("s63_c"), "a section assertion without `_applies` need not be cited");
    }

    #[test]
    fn a_sentences_facts_may_keep_to_the_people_it_mentions() {
        let text = "Alice and Bob got married. Alice and Charlie live in a home maintained by Alice.";
        let second = text.find("Alice and Charlie").unwrap();
        let mentions = crate::mentions::focused(crate::mentions::extract(text), (second, text.len()));
        let name = |n: &str| Token::Value(Value::Name(n.into()));
        let copy = |n: &str| mentions.iter().position(|m| m.value == Value::Name(n.into()) && m.in_question == (n != "bob"));
        let purpose = |on: bool| expected_part(&lex("payment e1 agent = alice purpose ="), None, Part::Facts).sentence_names(on);
        assert!(purpose(false).allows_from(&name("bob_s_house"), &mentions, None), "off: anyone the text names");
        assert!(!purpose(true).allows_from(&name("bob_s_house"), &mentions, None), "Bob is in another sentence");
        assert!(!purpose(true).allows_from(&name("bob"), &mentions, copy("bob")), "copied from another sentence");
        assert!(!purpose(true).allows_from(&Token::Sym("bob".into()), &mentions, None), "nor a bare word");
        assert!(purpose(true).allows_from(&name("alice_s_house"), &mentions, None) && purpose(true).allows_from(&name("charlie"), &mentions, copy("charlie")));
        assert!(purpose(true).allows_from(&name("home"), &mentions, None), "no one's name");
        let query = expected_part(&lex("query s2_b_1_A"), None, Part::Query).sentence_names(true);
        assert!(query.allows_from(&name("bob"), &mentions, copy("bob")), "the query is no sentence's");
    }

    #[test]
    fn a_query_may_keep_to_the_years_the_question_mentions() {
        let signatures: Signatures = [("s152_c_2".to_string(), vec![vec![ArgType::NAME, ArgType::NAME, ArgType::ANY, ArgType::ANY]])].into();
        let a = Some(&signatures);
        let source = crate::example::source_text("Alice has a son, Bob, who was born January 31st, 2014.", "Bob bears a relationship to Alice under section 152(c)(2) in 2016.");
        let mentions = crate::mentions::extract(&source);
        let year = |y: i64, asked: bool| mentions.iter().position(|m| m.value == Value::Int(y) && m.kind == MentionKind::Year && m.in_question == asked);
        let prefix = "query s152_c_2 bob alice Start End & first_day";
        let on = expected(&lex(prefix), a).years_from_question(true);
        let off = expected(&lex(prefix), a);
        let int = |y: i64| Token::Value(Value::Int(y));
        assert!(off.allows_from(&int(2014), &mentions, year(2014, false)), "off: the text's year");
        assert!(!on.allows_from(&int(2014), &mentions, year(2014, false)), "a year only the text gives");
        assert!(on.allows_from(&int(2016), &mentions, year(2016, true)), "the question's year");
        let date = |d: &str| Token::Value(Value::Date(d.parse().unwrap()));
        let role = expected(&lex("query s152_c_2 bob alice"), a).years_from_question(true);
        assert!(!role.allows_from(&date("2014-01-31"), &mentions, None) && role.allows_from(&date("2016-01-01"), &mentions, None), "a date from the vocabulary: of the question's year");
        let born = |ms: &[Mention]| ms.iter().position(|m| m.kind == MentionKind::Date);
        assert!(!role.allows_from(&date("2014-01-31"), &mentions, born(&mentions)), "a text's date of a year the question does not give");
        let asked_2014 = crate::mentions::extract(&crate::example::source_text("Alice has a son, Bob, who was born January 31st, 2014.", "Section 152(c)(2) applies to Bob in 2014."));
        assert!(role.allows_from(&date("2014-01-31"), &asked_2014, born(&asked_2014)), "a text's date of the question's year");
        let facts = expected(&lex("son e1 agent = bob start ="), a).years_from_question(true);
        assert!(facts.allows_from(&date("2014-01-31"), &mentions, None), "facts are no query");
    }

    #[test]
    fn places_from_the_vocabulary_are_those_the_text_names() {
        let named = crate::mentions::extract("Alice was paid $73200 in 2017 by Nando's Chicken in Arlington, Virginia, USA.");
        let unnamed = crate::mentions::extract("Alice was paid $200 for services performed at Johns Hopkins Hospital.");
        let name = |n: &str| Token::Value(Value::Name(n.into()));
        let location = expected(&lex("service e1 agent = alice location ="), None);
        assert!(!location.allows_from(&name("baltimore"), &named, None), "a place the text does not name, where it names one");
        assert!(location.allows_from(&name("usa"), &named, None), "a place the text names");
        assert!(!location.allows_from(&Token::Value(Value::Text("baltimore".into())), &named, None), "quoted or bare");
        assert!(location.allows_from(&Token::Value(Value::Text("private home".into())), &named, None), "a description");
        assert!(location.allows_from(&name("baltimore"), &unnamed, None), "a text that names no place");
        let agent = expected(&lex("service e1 agent ="), None);
        assert!(agent.allows_from(&name("baltimore"), &named, None), "other roles are not places");
    }

    #[test]
    fn parts_are_facts_only_or_the_query_only() {
        let facts = |p: &str| expected_part(&lex(p), None, Part::Facts);
        assert!(facts("").allows_end(), "a sentence may state nothing");
        assert!(facts("payment e1 agent = alice\n").allows_end());
        assert!(!facts("payment e1 agent = alice").allows_end() && !facts("for Y in 2017 .. 2018 {\n").allows_end());
        assert!(!facts("payment e1\n").allows(&lex("query").remove(0)));
        let query = expected_part(&[], None, Part::Query);
        assert!(query.allows(&lex("query").remove(0)) && !query.allows(&lex("payment").remove(0)) && !query.allows_end());
        assert!(expected_part(&lex("query tax alice 2017\n"), None, Part::Query).allows_end());
    }

    /// Random walks through the grammar over a pool of tokens: whatever it
    /// lets end reads back as an IR.
    #[test]
    fn whatever_may_end_reads_back() {
        let pool: Vec<Token> = lex(
            "payment income marriage event for Y Z in 2017 .. 2019 { } {Y} {Z} e1 e2 e3_ agent patient start end amount purpose = \
             alice bob \"usa\" 2018-01-01 2019-12-31 first_day last_day within ( ) , [ ] _ s151_c s63 query tax s1 & unbound before",
        );
        let mut pool = pool;
        pool.push(Token::Sym("\n".into()));
        let (any, name, year) = (ArgType::ANY, ArgType::NAME, ArgType::YEAR);
        let signatures: Signatures = [
            ("s1".to_string(), vec![vec![any; 2], vec![name, year, any]]),
            ("tax".to_string(), vec![vec![name, year]]),
            ("s63".to_string(), vec![vec![name, year, ArgType::NUMBER]]),
        ]
        .into();
        let mut seed: u64 = 7;
        let mut finished = 0;
        for _ in 0..3000 {
            let mut prefix: Vec<Token> = Vec::new();
            for _ in 0..40 {
                let exp = expected(&prefix, Some(&signatures));
                let options: Vec<&Token> = pool.iter().filter(|t| exp.allows(t)).collect();
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let r = (seed >> 33) as usize;
                if exp.allows_end() && (options.is_empty() || r.is_multiple_of(5)) {
                    let text = render(&prefix);
                    assert!(lexlog_data::linear::parse(&text).is_ok(), "{text}\n{:?}", lexlog_data::linear::parse(&text));
                    finished += 1;
                    break;
                }
                if options.is_empty() {
                    break;
                }
                prefix.push(options[r % options.len()].clone());
            }
        }
        assert!(finished > 300, "only {finished} walks finished");
    }
}
