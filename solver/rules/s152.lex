% §152. Dependent defined.

% §152(a): a dependent is a qualifying child or a qualifying relative, save
% for the exceptions of (b).
% s152_a(Dependent, Taxpayer, Year, Basis, Unused)
s152_a(D, T, Y, c, _) :- qualifying_child(D, T, Y), \+ s152_b_1(T, _, Y), \+ s152_b_2(T, _, D, Y).
s152_a(D, T, Y, d, _) :- qualifying_relative(D, T, Y), \+ s152_b_1(T, _, Y), \+ s152_b_2(T, _, D, Y).
dependent(D, T, Y) :- s152_a(D, T, Y, _, _).
dependent(D, T, Y) :- stated_s152_a(D, T, Y, _, _).

% §152(b)(1): a dependent of a taxpayer is treated as having no dependents.
% s152_b_1(Individual, Taxpayer claiming him, Year)
s152_b_1(X, T, Y) :- qualifying_child(X, T, Y), T \== X.
s152_b_1(X, T, Y) :- qualifying_relative(X, T, Y), T \== X.

% §152(b)(2): an individual who made a joint return with his spouse is not
% a dependent (of any taxpayer, so the first argument is left open).
% s152_b_2(Taxpayer, Spouse, Individual, Year)
s152_b_2(_, S, X, Y) :- joint_return_for(X, S, Y).

% §152(c): qualifying child.
% s152_c(Child, Taxpayer, Year)
s152_c(C, T, Y) :- s152_c_1(C, T, Y).
qualifying_child(C, T, Y) :- s152_c(C, T, Y).

% §152(c)(1): (A) relationship, (B) same principal place of abode for more
% than half the year, (C) age, (E) no joint return.
% s152_c_1(Child, Taxpayer, Year)
s152_c_1(C, T, Y) :- s152_c_1_A(C, T, Y), s152_c_1_B(C, _, T, _, _, Y), s152_c_1_C(C, T, Y),
    s152_c_1_E(C, _, Y).

% §152(c)(1)(A): bears a relationship described in (c)(2) during the year.
s152_c_1_A(C, T, Y) :- s152_c_2(C, T, S, E), calendar_year(Y), S =< last_day(Y), var(E).
s152_c_1_A(C, T, Y) :- s152_c_2(C, T, S, E), calendar_year(Y), S =< last_day(Y), E >= first_day(Y).

% §152(c)(1)(B): same principal place of abode as the taxpayer for more than
% one-half of the year.
% s152_c_1_B(Child, Place, Taxpayer, Unused, Days, Year)
s152_c_1_B(C, H, T, _, N, Y) :- shared_abode_days(C, T, H, Y, N), year_length(Y, L), N * 2 > L.

% §152(c)(1)(C): meets the age requirements of (c)(3).
s152_c_1_C(C, T, Y) :- s152_c_3(C, T, Y).

% §152(c)(1)(E): has not filed a joint return with his spouse for the year.
% s152_c_1_E(Individual, Spouse, Year)
s152_c_1_E(C, _, Y) :- individual(C), calendar_year(Y), \+ s152_b_2(_, _, C, Y).

% §152(c)(2): (A) a child of the taxpayer or a descendant of such a child;
% (B) a brother, sister, stepbrother or stepsister, or a descendant of one.
% s152_c_2(Individual, Taxpayer, Start, End)
s152_c_2(X, T, S, E) :- s152_c_2_A(X, T, _, S, E).
s152_c_2(X, T, S, E) :- s152_c_2_B(X, T, _, S, E).
% s152_c_2_A(Individual, Taxpayer, Relationship, Start, End)
s152_c_2_A(X, T, R, S, E) :- descendant_rel(X, T, R), relation_dates(R, S, E).
% s152_c_2_B(Individual, Taxpayer, Relationship, Start, End)
s152_c_2_B(X, T, R, S, E) :- any_sibling_rel(X, T, R), relation_dates(R, S, E).
s152_c_2_B(X, T, R, S, E) :- any_sibling_rel(Z, T, R), descendant_rel(X, Z, _), relation_dates(R, S, E).
any_sibling_rel(X, T, R) :- sibling_rel(X, T, R).
any_sibling_rel(X, T, R) :- stepsibling_rel(X, T, R).

% When a relationship holds: from its event's start, to its end or open.
relation_dates(R, S, E) :- period(R, S, _), end_or_open(R, E).

% §152(c)(3): younger than the taxpayer and under 25 at the close of the year.
% s152_c_3(Child, Taxpayer, Year)
s152_c_3(C, T, Y) :- younger_than(C, T), age_at_close(C, Y, A), A < 25.
younger_than(C, T) :- born(C, BC), born(T, BT), BC > BT.
% A parent whose birth the case does not give is older than his child.
younger_than(C, T) :- born(C, _), descendant_rel(C, T, _), \+ born_known(T).
born_known(T) :- born(T, _).

% §152(d): qualifying relative.
% s152_d(Individual, Taxpayer, Year)
s152_d(X, T, Y) :- s152_d_1_A(X, T, Y), s152_d_1_B(X, Y), s152_d_1_D(X, Y).
qualifying_relative(X, T, Y) :- s152_d(X, T, Y).

% §152(d)(1)(A): bears a relationship described in (d)(2).
s152_d_1_A(X, T, Y) :- relative_152_d(X, T, S, E), calendar_year(Y), S =< last_day(Y), var(E).
s152_d_1_A(X, T, Y) :- relative_152_d(X, T, S, E), calendar_year(Y), S =< last_day(Y), E >= first_day(Y).
s152_d_1_A(X, T, Y) :- s152_d_2_H(X, T, Y, _, _, _).

% §152(d)(1)(B): has no income for the calendar year.
% s152_d_1_B(Individual, Year)
s152_d_1_B(X, Y) :- individual(X), calendar_year(Y), \+ has_income(X, Y).

% §152(d)(1)(D): not a qualifying child of the taxpayer or of any other.
% s152_d_1_D(Individual, Year)
s152_d_1_D(X, Y) :- individual(X), calendar_year(Y), \+ qualifying_child(X, _, Y).

relative_152_d(X, T, S, E) :- s152_d_2_A(X, T, S, E).
relative_152_d(X, T, S, E) :- s152_d_2_B(X, T, S, E).
relative_152_d(X, T, S, E) :- s152_d_2_C(X, T, S, E).
relative_152_d(X, T, S, E) :- s152_d_2_D(X, T, S, E).
relative_152_d(X, T, S, E) :- s152_d_2_E(X, T, _, S, E).
relative_152_d(X, T, S, E) :- s152_d_2_F(X, T, _, S, E).
relative_152_d(X, T, S, E) :- s152_d_2_G(X, T, S, E).

% §152(d)(2)(A): a child or a descendant of a child.
% s152_d_2_A(Individual, Taxpayer, Start, End)
s152_d_2_A(X, T, S, E) :- descendant_rel(X, T, R), relation_dates(R, S, E).
% §152(d)(2)(B): a brother, sister, stepbrother, or stepsister.
s152_d_2_B(X, T, S, E) :- any_sibling_rel(X, T, R), relation_dates(R, S, E).
% §152(d)(2)(C): the father or mother, or an ancestor of either.
s152_d_2_C(X, T, S, E) :- descendant_rel(T, X, R), relation_dates(R, S, E).
% §152(d)(2)(D): a stepfather or stepmother: stated, or the spouse of a
% parent who is not a parent himself.
s152_d_2_D(X, T, S, E) :- stepchild_rel(T, X, R), relation_dates(R, S, E).
s152_d_2_D(X, T, S, E) :- parent_rel(P, T, _), spouse_rel(X, P, M), \+ parent(X, T), relation_dates(M, S, E).
% §152(d)(2)(E): a son or daughter of a brother or sister of the taxpayer.
% s152_d_2_E(Individual, Taxpayer, Parent, Start, End)
s152_d_2_E(X, T, P, S, E) :- parent_rel(P, X, R), sibling_rel(P, T, _), relation_dates(R, S, E).
% §152(d)(2)(F): a brother or sister of the father or mother of the taxpayer.
% s152_d_2_F(Individual, Taxpayer, Parent, Start, End)
s152_d_2_F(X, T, P, S, E) :- parent_rel(P, T, _), sibling_rel(X, P, R), relation_dates(R, S, E).
% §152(d)(2)(G): a son-, daughter-, father-, mother-, brother- or
% sister-in-law.
% s152_d_2_G(Individual, Taxpayer, Start, End)
s152_d_2_G(X, T, S, E) :- parent_rel(T, C, _), spouse_rel(X, C, M), relation_dates(M, S, E).
s152_d_2_G(X, T, S, E) :- spouse_rel(T, W, M), parent_rel(X, W, _), relation_dates(M, S, E).
s152_d_2_G(X, T, S, E) :- spouse_rel(T, W, M), sibling_rel(X, W, _), relation_dates(M, S, E).
s152_d_2_G(X, T, S, E) :- sibling_rel(W, T, _), spouse_rel(X, W, M), relation_dates(M, S, E).
s152_d_2_G(X, T, S, E) :- in_law_rel(X, T, R), relation_dates(R, S, E).
in_law_rel(X, T, R) :- son_in_law(R), agent(R, X), patient(R, T).
in_law_rel(X, T, R) :- daughter_in_law(R), agent(R, X), patient(R, T).
in_law_rel(X, T, R) :- father_in_law(R), agent(R, X), patient(R, T).
in_law_rel(X, T, R) :- mother_in_law(R), agent(R, X), patient(R, T).
in_law_rel(X, T, R) :- brother_in_law(R), agent(R, X), patient(R, T).
in_law_rel(X, T, R) :- sister_in_law(R), agent(R, X), patient(R, T).
% §152(d)(2)(H): not the taxpayer's spouse at any time during the year, has
% the same principal place of abode for the taxable year (all of it) and is a
% member of the household.
% s152_d_2_H(Individual, Taxpayer, Year, Place, Start, End)
s152_d_2_H(X, T, Y, H, S, E) :- shared_residence(X, T, H, R), relation_dates(R, S, E),
    shared_abode_days(X, T, H, Y, N), year_length(Y, N), \+ married_during(X, T, _, Y).
shared_residence(X, T, H, R) :- residence(R), agent(R, X), agent(R, T), X \== T, patient(R, H).
shared_residence(X, T, H, R) :- residence(R), agent(R, X), patient(R, H), residence(R2), agent(R2, T),
    patient(R2, H), X \== T.
