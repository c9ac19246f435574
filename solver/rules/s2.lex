% §2. Definitions and special rules: surviving spouse, head of household.

% §2(a)(1)(A): the spouse died during either of the two years immediately
% preceding the taxable year.
% s2_a_1_A(Taxpayer, Spouse, Marriage, Year)
s2_a_1_A(P, S, M, Y) :- spouse_rel(P, S, M), died(S, D), calendar_year(Y),
    year(D) >= Y - 2, year(D) =< Y - 1, marriage_span(M, Start, End), Start =< D, D =< End.

% §2(a)(1)(B): maintains as his home a household that is for the taxable
% year the principal place of abode of a dependent who is his son, stepson,
% daughter or stepdaughter, and for whom he is entitled to a §151 deduction.
% s2_a_1_B(Taxpayer, Household, Dependent, Year)
s2_a_1_B(P, H, C, Y) :- maintains_home(P, H, Y), son_or_daughter(C, P), abode_for_year(C, H, Y),
    dependent_151(C, P, Y).
son_or_daughter(C, P) :- child_rel(C, P, _).
son_or_daughter(C, P) :- stepchild_rel(C, P, _).
% The place is X's abode for all of year Y (from birth, if born in Y).
abode_for_year(X, H, Y) :- residence(R), agent(R, X), patient(R, H), period(R, S, T), calendar_year(Y),
    T >= last_day(Y), S =< first_day(Y).
abode_for_year(X, H, Y) :- residence(R), agent(R, X), patient(R, H), period(R, S, T), calendar_year(Y),
    T >= last_day(Y), born(X, B), year(B) =:= Y, S =< B.
% A dependent for whom the taxpayer is entitled to a deduction under §151.
dependent_151(C, P, Y) :- dependent(C, P, Y), entitled_151(P, C, Y).
dependent_151(C, P, Y) :- stated_151_for(P, C, Y).
stated_151_for(T, X, Y) :- stated_s151_c(T, X, _, Y).
stated_151_for(T, X, Y) :- s151_c_applies(T, X, Y).
stated_151_for(T, X, Y) :- stated_s151(T, _, L, _, Y), member_of(X, L).

% §2(a)(2)(A): not a surviving spouse if remarried before the close of the
% taxable year.
% s2_a_2_A(Taxpayer, Earlier marriage, Year)
s2_a_2_A(P, M, Y) :- spouse_rel(P, S, M), died(S, D), spouse_rel(P, _, M2), M2 \== M,
    start(M2, D2), D2 > D, calendar_year(Y), D2 =< last_day(Y).

% §2(a)(2)(B): a joint return could have been made for the taxable year in
% which the spouse died: neither spouse was a nonresident alien that year.
% s2_a_2_B(Taxpayer, Spouse, Year of death)
s2_a_2_B(P, S, Y) :- spouse_rel(P, S, _), died_in(S, Y), calendar_year(Y),
    \+ nonresident_alien_during(P, Y), \+ nonresident_alien_during(S, Y).

% §2(a): surviving spouse.
% s2_a(Taxpayer, Spouse, Household, Dependent, Year)
s2_a(P, S, H, C, Y) :- s2_a_1_A(P, S, M, Y), s2_a_1_B(P, H, C, Y), \+ s2_a_2_A(P, M, Y),
    died_in(S, DY), s2_a_2_B(P, S, DY).
surviving_spouse(P, Y) :- s2_a(P, _, _, _, Y).
surviving_spouse(P, Y) :- stated_s2_a(P, _, _, _, Y).

% §2(b)(1)(A)(i)(I): the child is married at the close of the year.
% s2_b_1_A_i_I(Child, Year)
s2_b_1_A_i_I(C, Y) :- married_at_close(C, _, _, Y).

% §2(b)(1)(A)(i)(II): the child is not a dependent of the individual by
% reason of §152(b)(2).
% s2_b_1_A_i_II(Taxpayer, Child, Year)
s2_b_1_A_i_II(P, C, Y) :- qualifying_child(C, P, Y), \+ s152_b_2(P, _, C, Y).

% §2(b)(1)(A)(i): a qualifying child, but not one who is (I) and (II).
% s2_b_1_A_i(Taxpayer, Child, Year)
s2_b_1_A_i(P, C, Y) :- qualifying_child(C, P, Y), \+ excluded_child(P, C, Y).
excluded_child(P, C, Y) :- s2_b_1_A_i_I(C, Y), s2_b_1_A_i_II(P, C, Y).

% §2(b)(1)(A)(ii): any other person who is a dependent of the taxpayer, if
% he is entitled to a §151 deduction for that person.
% s2_b_1_A_ii(Taxpayer, Person, Year)
s2_b_1_A_ii(P, X, Y) :- dependent_151(X, P, Y).

% §2(b)(1)(A): maintains as his home a household that is for more than half
% the year the principal place of abode of such a person.
% s2_b_1_A(Taxpayer, Household, Person, Year)
s2_b_1_A(P, H, X, Y) :- maintains_home(P, H, Y), hoh_person(P, X, Y), abode_over_half(X, H, Y).
hoh_person(P, X, Y) :- s2_b_1_A_i(P, X, Y).
hoh_person(P, X, Y) :- s2_b_1_A_ii(P, X, Y).

% §2(b)(1)(B): maintains a household that is for the year (all of it, where
% (A) asks more than half) the principal place of abode of his father or
% mother, for whom he is entitled to a §151 deduction.
% s2_b_1_B(Taxpayer, Household, Parent, Year)
s2_b_1_B(P, H, X, Y) :- maintains(P, H, Y), parent(X, P), abode_for_year(X, H, Y), dependent_151(X, P, Y).

% §2(b)(1): head of household: not married at the close of the year, not a
% surviving spouse, and (A) or (B).
% s2_b_1(Taxpayer, Household, Person, Year)
s2_b_1(P, H, X, Y) :- hoh_basis(P, H, X, Y), \+ married_for_hoh(P, Y), \+ surviving_spouse(P, Y).
hoh_basis(P, H, X, Y) :- s2_b_1_A(P, H, X, Y).
hoh_basis(P, H, X, Y) :- s2_b_1_B(P, H, X, Y).

% §2(b)(2): marital status for (b)(1). Married at the close of the year
% under §7703, save (A) legal separation and (B) a nonresident alien spouse,
% and (C) a spouse who died during the year still counts.
married_for_hoh(P, Y) :- married_at_close(P, S, M, Y), \+ s2_b_2_A(M, Y), \+ s2_b_2_B(P, S, Y).
married_for_hoh(P, Y) :- s2_b_2_C(P, _, _, Y).
married_for_hoh(P, Y) :- stated_s7703(P, _, _, _, _, _, _, _, Y).

% §2(b)(2)(A): legally separated under a decree: not married.
% s2_b_2_A(Marriage, Year)
s2_b_2_A(M, Y) :- legally_separated(_, _, M, _, D), calendar_year(Y), D =< last_day(Y).

% §2(b)(2)(B): the spouse is a nonresident alien at any time during the year.
% s2_b_2_B(Taxpayer, Spouse, Year)
s2_b_2_B(P, S, Y) :- married_during(P, S, _, Y), nonresident_alien_during(S, Y).

% §2(b)(2)(C): a spouse (not a nonresident alien) died during the year.
% s2_b_2_C(Taxpayer, Marriage, Spouse, Year)
s2_b_2_C(P, M, S, Y) :- spouse_rel(P, S, M), died_in(S, Y), calendar_year(Y),
    \+ nonresident_alien_during(S, Y).

% §2(b)(3)(A): not a head of household if a nonresident alien at any time
% during the year.
% s2_b_3_A(Taxpayer, Year)
s2_b_3_A(P, Y) :- nonresident_alien_during(P, Y).

% §2(b)(3)(B): nor by reason of an individual who would not be a dependent
% but for §152(d)(2)(H).
% s2_b_3_B(Taxpayer, Individual, Year)
s2_b_3_B(P, X, Y) :- household_member_152(X, P, Y), \+ related_152(X, P).
household_member_152(X, P, Y) :- s152_d_2_H(X, P, Y, _, _, _).
related_152(X, P) :- relative_152_d(X, P, _, _).

% §2(b): head of household for the year.
% s2_b(Taxpayer, Household, Person, Year)
s2_b(P, H, X, Y) :- s2_b_1(P, H, X, Y), \+ s2_b_3_A(P, Y), \+ s2_b_3_B(P, X, Y).
head_of_household(P, Y) :- s2_b(P, _, _, Y).
head_of_household(P, Y) :- stated_s2_b(P, _, _, Y).
