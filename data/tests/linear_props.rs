//! Property tests of the linear form: print -> read is the identity on
//! generated IRs, and the readers never panic on arbitrary input.

use chrono::NaiveDate;
use lexlog_data::linear;
use lexlog_data::*;
use proptest::prelude::*;

fn name() -> impl Strategy<Value = String> {
    prop_oneof![3 => "[a-z][a-z0-9_]{0,8}", 1 => "[ -~]{0,8}", 1 => "[a-zé{}'\\\\ -]{1,6}"]
}

fn var() -> impl Strategy<Value = String> {
    "[A-Z][A-Za-z0-9_]{0,3}"
}

fn date() -> impl Strategy<Value = NaiveDate> {
    (1000i32..9999, 1u32..=365).prop_map(|(y, d)| NaiveDate::from_yo_opt(y, d).unwrap())
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        name().prop_map(Value::Name),
        "[ -~é\n]{0,10}".prop_map(Value::Text),
        any::<i64>().prop_map(Value::Int),
        date().prop_map(Value::Date),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![4 => scalar(), 1 => prop::collection::vec(scalar(), 0..4).prop_map(Value::List)]
}

/// A well-formed splice: at least two parts, no empty or adjacent literals.
fn concat() -> impl Strategy<Value = Term> {
    prop::collection::vec(prop_oneof![name().prop_map(Part::Lit), var().prop_map(Part::Var)], 2..5).prop_filter_map(
        "needs a variable, no empty or adjacent literals",
        |parts| {
            let ok = parts.iter().any(|p| matches!(p, Part::Var(_)))
                && parts.iter().all(|p| !matches!(p, Part::Lit(s) if s.is_empty()))
                && parts.windows(2).all(|w| !matches!(w, [Part::Lit(_), Part::Lit(_)]));
            ok.then_some(Term::Concat(parts))
        },
    )
}

fn term() -> impl Strategy<Value = Term> {
    prop_oneof![
        4 => value().prop_map(Term::Value),
        1 => Just(Term::Any),
        1 => var().prop_map(Term::Var),
        1 => var().prop_map(Term::FirstDay),
        1 => var().prop_map(Term::LastDay),
        1 => (date(), date()).prop_map(|(after, before)| Term::Window { after, before }),
        1 => concat(),
    ]
}

fn predicate(with_tax: bool) -> impl Strategy<Value = Predicate> {
    let aux: Vec<Aux> = Aux::ALL.iter().copied().filter(|a| with_tax || *a != Aux::Tax).collect();
    prop_oneof![
        "s[0-9]{1,4}(_[a-zA-Z0-9]{1,3}){0,3}".prop_map(|s| Predicate::Section(SectionId::parse(&s).unwrap())),
        prop::sample::select(aux).prop_map(Predicate::Aux),
    ]
}

fn assertion(with_tax: bool) -> impl Strategy<Value = Assertion> {
    (predicate(with_tax), prop::collection::vec(term(), 0..5)).prop_map(|(pred, args)| Assertion { pred, args })
}

fn event() -> impl Strategy<Value = Event> {
    (
        prop::option::of(prop::sample::select(EventKind::ALL.to_vec())),
        term(),
        prop::collection::vec((prop::sample::select(Role::ALL.to_vec()), term()), 0..4),
    )
        .prop_map(|(kind, id, roles)| Event { kind, id, roles })
}

fn domain() -> impl Strategy<Value = Domain> {
    prop_oneof![
        (any::<i64>(), any::<i64>()).prop_map(|(from, to)| Domain::Range { from, to }),
        prop::collection::vec(scalar(), 0..4).prop_map(|values| Domain::List { values }),
    ]
}

fn fact() -> impl Strategy<Value = Fact> {
    let leaf = prop_oneof![event().prop_map(Fact::Event), assertion(true).prop_map(Fact::Assert)];
    leaf.prop_recursive(2, 12, 4, |inner| {
        (var(), domain(), prop::collection::vec(inner, 0..4))
            .prop_map(|(var, domain, body)| Fact::ForEach(ForEach { var, domain, body }))
    })
}

fn goal() -> impl Strategy<Value = Goal> {
    prop_oneof![
        3 => assertion(false).prop_map(Goal::Holds),
        1 => var().prop_map(|var| Goal::Unbound { var }),
        1 => (any::<i64>(), var()).prop_map(|(year, var)| Goal::FirstDay { year, var }),
        1 => (term(), term()).prop_map(|(left, right)| Goal::Before { left, right }),
    ]
}

fn query() -> impl Strategy<Value = Query> {
    prop_oneof![
        prop::collection::vec(goal(), 1..4).prop_map(|goals| Query::Holds { goals }),
        (name(), any::<i64>()).prop_map(|(person, year)| Query::Tax { person, year }),
    ]
}

fn case_ir() -> impl Strategy<Value = CaseIr> {
    (prop::collection::vec(fact(), 0..6), prop::option::of(query())).prop_map(|(facts, query)| CaseIr { facts, query })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn print_then_read_is_identity(ir in case_ir()) {
        let text = linear::print(&ir);
        let back = linear::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back, ir, "{}", text);
    }

    #[test]
    fn linear_reader_never_panics(text in "[ -~\n]{0,80}") {
        let _ = linear::parse(&text);
    }

    #[test]
    fn linear_reader_never_panics_on_near_misses(ir in case_ir(), cut in 0usize..200, junk in "[ -~\n]{0,3}") {
        let mut text = linear::print(&ir);
        let at = text.char_indices().map(|(i, _)| i).nth(cut).unwrap_or(text.len());
        text.insert_str(at, &junk);
        let _ = linear::parse(&text);
    }

    #[test]
    fn case_reader_never_panics(facts in "[ -~\n]{0,120}", test in "[ -~\n]{0,40}") {
        let source = format!("% Text\n% t\n\n% Question\n% q Entailment\n\n% Facts\n{facts}\n\n% Test\n{test}\n");
        let _ = lexlog_data::sara::parse_case("fuzz", "fuzz.pl", &source);
    }
}
