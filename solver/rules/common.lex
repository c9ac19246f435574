% Common sense the statutes leave undefined: how events last, who is whose
% relative or spouse, where people live, what counts as income. Every rule
% here reads ordinary language, not a statute; the section files build on
% these predicates. `event/1` (every typed event id) and `calendar_year/1`
% (the years a case spans) are supplied with the facts.

% -- Time ------------------------------------------------------------------
% An event without an end is ongoing; one without a start has always held.
period(E, S, T) :- start(E, S), end(E, T).
period(E, S, "9999-12-31") :- start(E, S), \+ end(E, _).
period(E, "0001-01-01", T) :- end(E, T), \+ start(E, _).
period(E, "0001-01-01", "9999-12-31") :- event(E), \+ start(E, _), \+ end(E, _).

% The end of an event, or an open value if it has none (Prolog's unbound).
end_or_open(E, T) :- end(E, T).
end_or_open(E, _) :- event(E), \+ end(E, _).

% Days that an event's period shares with year Y (0 if none).
days_in_year(E, Y, N) :-
    period(E, S, T), calendar_year(Y),
    F is first_day(Y), L is last_day(Y),
    N0 is days(max(S, F), min(T, L)) + 1, N is max(N0, 0).

% The event holds at some time during year Y.
during_year(E, Y) :- days_in_year(E, Y, N), N > 0.

% Days in year Y (365 or 366).
year_length(Y, L) :- calendar_year(Y), L is days(first_day(Y), last_day(Y)) + 1.

% The event holds at the close of year Y.
holds_at_close(E, Y) :- period(E, S, T), calendar_year(Y), D is last_day(Y), S =< D, D =< T.

% -- People ----------------------------------------------------------------
% Anyone the case names who is not an event, a place or a text
% (`mentioned/1` and `text/1` come with the facts).
individual(X) :- mentioned(X), \+ event(X), \+ text(X), \+ place(X).
place(X) :- residence(R), patient(R, X).
place(X) :- location(_, X).

% Birth: a birth event, else the start of a son or daughter relationship
% (cases write "a child, Charlie, born October 9th, 2000" that way).
born(P, D) :- birth(E), agent(E, P), start(E, D).
born(P, D) :- parent_rel(_, P, E), start(E, D), \+ has_birth(P).
has_birth(P) :- birth(E), agent(E, P), start(E, _).
died(P, D) :- death(E), agent(E, P), start(E, D).
died_in(P, Y) :- died(P, D), Y is year(D).
% A consistency check, no statute: P dies on D, before his birth on B.
died_before_born(P, D, B) :- died(P, D), born(P, B), D < B.

% The close of year Y for P: its last day, or P's death if that is earlier
% (the dead do not age or go blind).
life_close(P, Y, D) :- individual(P), calendar_year(Y), \+ died(P, _), D is last_day(Y).
life_close(P, Y, D) :- died(P, X), calendar_year(Y), D is min(X, last_day(Y)).
% Age in whole years at the close of year Y, or at death (a Feb 29
% birthday falls on Feb 28).
age_at_close(P, Y, A) :- life_close(P, Y, D), born(P, B), A is year(D) - year(B), add_years(B, A) =< D.
age_at_close(P, Y, A) :- life_close(P, Y, D), born(P, B), N is year(D) - year(B), add_years(B, N) > D,
    A is N - 1.

% Blind at the close of year Y, or at death (§63(f)(2)'s last sentence).
blind_at_close(P, Y) :- blindness(E), agent(E, P), life_close(P, Y, D), period(E, S, T), S =< D, D =< T.
nonresident_alien_during(P, Y) :- nonresident_alien(E), agent(E, P), during_year(E, Y).

% -- Kinship: `kind(E), agent(E, X), patient(E, Y)` reads "X is Y's kind" --
% parent_rel(Parent, Child, Event)
parent_rel(P, C, E) :- father(E), agent(E, P), patient(E, C).
parent_rel(P, C, E) :- mother(E), agent(E, P), patient(E, C).
parent_rel(P, C, E) :- son(E), agent(E, C), patient(E, P).
parent_rel(P, C, E) :- daughter(E), agent(E, C), patient(E, P).
parent(P, C) :- parent_rel(P, C, _).

% A son or daughter in the stricter sense §2(a) asks.
child_rel(C, P, E) :- parent_rel(P, C, E).
stepchild_rel(C, P, E) :- stepson(E), agent(E, C), patient(E, P).
stepchild_rel(C, P, E) :- stepdaughter(E), agent(E, C), patient(E, P).
stepchild_rel(C, P, E) :- stepfather(E), agent(E, P), patient(E, C).
stepchild_rel(C, P, E) :- stepmother(E), agent(E, P), patient(E, C).

% descendant_rel(Descendant, Ancestor, Event of the first link)
descendant_rel(D, A, E) :- parent_rel(A, D, E).
descendant_rel(D, A, E) :- parent_rel(A, C, E), descendant_rel(D, C, _).

sibling_rel(X, Y, E) :- brother(E), agent(E, X), patient(E, Y).
sibling_rel(X, Y, E) :- sister(E), agent(E, X), patient(E, Y).
sibling_rel(X, Y, E) :- sibling(E), agent(E, X), patient(E, Y).
sibling_rel(X, Y, E) :- sibling(E), agent(E, X), agent(E, Y), X \== Y.
sibling_rel(Y, X, E) :- brother(E), agent(E, X), patient(E, Y).
sibling_rel(Y, X, E) :- sister(E), agent(E, X), patient(E, Y).
sibling_rel(Y, X, E) :- sibling(E), agent(E, X), patient(E, Y).

stepsibling_rel(X, Y, E) :- stepbrother(E), agent(E, X), patient(E, Y).
stepsibling_rel(X, Y, E) :- stepsister(E), agent(E, X), patient(E, Y).
stepsibling_rel(Y, X, E) :- stepbrother(E), agent(E, X), patient(E, Y).
stepsibling_rel(Y, X, E) :- stepsister(E), agent(E, X), patient(E, Y).

% -- Marriage --------------------------------------------------------------
spouse_rel(A, B, M) :- marriage(M), agent(M, A), agent(M, B), A \== B.
spouse_rel(A, B, M) :- marriage(M), agent(M, A), patient(M, B), A \== B.
spouse_rel(B, A, M) :- marriage(M), agent(M, A), patient(M, B), A \== B.

% A marriage ends with its stated end, the death of a spouse, or a decree
% of divorce or separate maintenance.
marriage_end(M, T) :- marriage(M), end(M, T).
marriage_end(M, D) :- spouse_rel(A, _, M), died(A, D).
marriage_end(M, D) :- legally_separated(_, _, M, _, D).
% The marriage lasts from S until T (a spouse who dies on T is a spouse on T).
marriage_span(M, S, T) :- marriage(M), period(M, S, _), aggregate_all(min(X), marriage_end(M, X), T).
marriage_span(M, S, "9999-12-31") :- marriage(M), period(M, S, _), \+ marriage_end(M, _).

% Married to B at the close of year Y.
married_at_close(A, B, M, Y) :- spouse_rel(A, B, M), marriage_span(M, S, T), calendar_year(Y),
    D is last_day(Y), S =< D, D =< T.
% Married to B at some time during year Y.
married_during(A, B, M, Y) :- spouse_rel(A, B, M), marriage_span(M, S, T), calendar_year(Y),
    S =< last_day(Y), T >= first_day(Y).
% A consistency check, no statute: P is in marriages M1 and M2 at once.
overlapping_marriages(P, M1, M2) :- spouse_rel(P, _, M1), spouse_rel(P, _, M2), M1 \== M2,
    marriage_span(M1, S1, T1), marriage_span(M2, S2, T2), S1 < T2, S2 < T1.

legally_separated(A, B, M, Sep, D) :- legal_separation(Sep), patient(Sep, M), spouse_rel(A, B, M), start(Sep, D).
legally_separated(A, B, M, Sep, D) :- legal_separation(Sep), agent(Sep, A), agent(Sep, B), A \== B, spouse_rel(A, B, M), start(Sep, D).
% A divorce is a decree of divorce, whether it names the marriage or the two.
legally_separated(A, B, M, X, D) :- divorce_of(X, M), spouse_rel(A, B, M), start(X, D).
divorce_of(X, M) :- divorce(X), patient(X, M), marriage(M).
divorce_of(X, M) :- divorce(X), agent(X, A), agent(X, B), A \== B, spouse_rel(A, B, M).
divorce_of(X, M) :- divorce(X), agent(X, A), patient(X, B), spouse_rel(A, B, M).

joint_return_for(A, B, Y) :- joint_return(E), agent(E, A), agent(E, B), A \== B, during_year(E, Y).
joint_return_for(A, B, Y) :- joint_return(E), agent(E, A), patient(E, B), during_year(E, Y).
joint_return_for(B, A, Y) :- joint_return(E), agent(E, A), patient(E, B), during_year(E, Y).
joint_return_by(A, Y) :- joint_return_for(A, _, Y).
joint_return_by(A, Y) :- joint_return(E), agent(E, A), during_year(E, Y).

% -- Homes and households --------------------------------------------------
% A household is named by a place, or by a residence event in that place.
household_place(H, H) :- residence(R), patient(R, H).
household_place(R, H) :- residence(R), patient(R, H).
household_place(H, H) :- payment(E), purpose(E, H), \+ event(H).

% Days in year Y that X lives at place H.
abode_days(X, H, Y, N) :- residence(R), agent(R, X), patient(R, H), days_in_year(R, Y, N).
lives_during(X, H, Y) :- abode_days(X, H, Y, N), N > 0.
% X lives at H for more than half of year Y.
abode_over_half(X, H, Y) :- abode_days(X, H, Y, N), year_length(Y, L), N * 2 > L.
% X and Z share the place H for more than half of year Y.
shared_abode_days(X, Z, H, Y, N) :- residence(R1), agent(R1, X), patient(R1, H),
    residence(R2), agent(R2, Z), patient(R2, H), X \== Z,
    period(R1, S1, T1), period(R2, S2, T2), calendar_year(Y),
    N0 is days(max(max(S1, S2), first_day(Y)), min(min(T1, T2), last_day(Y))) + 1, N is max(N0, 0).

% Payments for household H in year Y, by P and by anyone.
% (Aggregates sum over tuples, so each item keeps its event to stay distinct.)
upkeep_paid(P, H, Y, E, A) :- payment(E), agent(E, P), purpose(E, X), household_place(X, H),
    amount(E, A), during_year(E, Y).
upkeep_share(P, H, Y, Mine, All) :- household_place(_, H), calendar_year(Y), individual(P),
    aggregate_all(sum(A), upkeep_paid(P, H, Y, _, A), Mine), Mine > 0,
    aggregate_all(sum(B), upkeep_paid(_, H, Y, _, B), All).
% P furnishes over half the cost of maintaining H during Y.
maintains(P, H, Y) :- upkeep_share(P, H, Y, Mine, All), Mine * 2 > All.
% P maintains H as his home: he pays for it and lives there.
maintains_home(P, H, Y) :- maintains(P, H, Y), lives_during(P, H, Y).

% -- Income ----------------------------------------------------------------
% Gross income for year Y: income events, and payments received, dated in Y.
income_item(P, Y, E, A) :- income(E), agent(E, P), amount(E, A), start(E, D), Y is year(D).
income_item(P, Y, E, A) :- payment(E), patient(E, P), amount(E, A), start(E, D), Y is year(D).
gross_income(P, Y, G) :- individual(P), calendar_year(Y), aggregate_all(sum(A), income_item(P, Y, _, A), G).
has_income(P, Y) :- income_item(P, Y, _, A), A > 0.

% The gross income on P's return: on a joint return, both spouses' incomes.
return_gross_income(P, Y, G) :- joint_return_for(P, S, Y), gross_income(P, Y, A), gross_income(S, Y, B), G is A + B.
return_gross_income(P, Y, G) :- gross_income(P, Y, G), \+ joint_return_for(P, _, Y).
