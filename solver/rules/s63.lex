% §63. Taxable income defined.

% Adjusted gross income: lexlog's statutes define no adjustments, so AGI is
% the gross income on the return (both spouses' on a joint return).
agi(P, Y, G) :- return_gross_income(P, Y, G).

% The §151 deduction for personal exemptions, derived or stated.
exemptions_151(P, Y, T) :- s151_a(P, T, Y), \+ stated_s151(P, _, _, _, Y).
exemptions_151(P, Y, T) :- stated_s151(P, T, _, _, Y).

% Itemized deductions (§63(d)): deduction events, or as stated.
% s63_d(Taxpayer, Deduction, Amount, Year)
s63_d(P, E, A, Y) :- deduction(E), agent(E, P), amount(E, A), start(E, D), Y is year(D).
% On a joint return, both spouses' deductions.
return_deduction(P, E, A, Y) :- s63_d(P, E, A, Y).
return_deduction(P, E, A, Y) :- joint_return_for(P, S, Y), s63_d(S, E, A, Y).
itemized_total(P, Y, T) :- taxpayer_year(P, Y), itemizes(P, Y), aggregate_all(sum(A), return_deduction(P, _, A, Y), T).
itemizes(P, Y) :- deduction(E), agent(E, P), during_year(E, Y).
itemizes(P, Y) :- joint_return_for(P, S, Y), deduction(E), agent(E, S), during_year(E, Y).

% §63(d)(2): the deduction for personal exemptions (amounts as a list).
% s63_d_2(Taxpayer, Unused, Amounts, Year)
s63_d_2(P, _, L, Y) :- stated_s151(P, A, _, _, Y), list_of_one(L, A).
s63_d_2(P, _, L, Y) :- s151_a(P, A, Y), list_of_one(L, A).

% §63(a): gross income minus the deductions allowed (other than the
% standard deduction): itemized deductions (after §68) and exemptions.
% s63_a(Taxpayer, Year, Taxable income)
s63_a(P, Y, TI) :- itemizes(P, Y), return_gross_income(P, Y, G), itemized_allowed(P, Y, I),
    exemptions_151(P, Y, X), TI is max(0, G - I - X).
itemized_allowed(P, Y, D) :- s68_a(P, _, D, Y).

% §63(b): for an individual who does not itemize, AGI minus the standard
% deduction and the exemptions.
% s63_b(Taxpayer, Year, Taxable income)
s63_b(P, Y, TI) :- taxpayer_year(P, Y), \+ itemizes(P, Y), agi(P, Y, G), standard_deduction(P, Y, S),
    exemptions_151(P, Y, X), TI is max(0, G - S - X).

% Taxable income, derived or stated.
% s63(Taxpayer, Year, Taxable income)
s63(P, Y, TI) :- s63_a(P, Y, TI), \+ stated_s63(P, Y, _).
s63(P, Y, TI) :- s63_b(P, Y, TI), \+ stated_s63(P, Y, _).

% A deduction amount the case states is the amount: the rules derive one
% only where the case states none (as for s63 and s151).

% §63(c)(1): the standard deduction is the basic plus the additional.
% s63_c_1(Taxpayer, Year, Amount)
s63_c_1(P, Y, S) :- s63_c_2(P, Y, B), s63_c_3(P, A, Y), S is B + A, \+ stated_s63_c_1(P, Y, _).
% s63_c(Taxpayer, Year, Amount): zero in the cases of (6).
s63_c(P, Y, 0) :- s63_c_6(P, Y), \+ stated_s63_c(P, Y, _).
s63_c(P, Y, S) :- s63_c_1(P, Y, S), \+ s63_c_6(P, Y), \+ stated_s63_c(P, Y, _).
standard_deduction(P, Y, S) :- s63_c(P, Y, S).

% §63(c)(2): the basic standard deduction.
% s63_c_2_C(Year, Amount): $3,000 in any other case ($12,000 under (7)).
s63_c_2_C(Y, 3000) :- calendar_year(Y), \+ s63_c_7(Y).
s63_c_2_C(Y, A) :- s63_c_7_ii(Y, A).
% s63_c_2_A_i(Taxpayer, Year): a joint return.
s63_c_2_A_i(P, Y) :- joint_return_by(P, Y).
% s63_c_2_A_ii(Taxpayer, Year): a surviving spouse.
s63_c_2_A_ii(P, Y) :- surviving_spouse(P, Y).
% s63_c_2_A(Taxpayer, Year, Amount): 200 percent of (C).
s63_c_2_A(P, Y, A) :- s63_c_2_A_i(P, Y), s63_c_2_C(Y, C), A is 2 * C.
s63_c_2_A(P, Y, A) :- s63_c_2_A_ii(P, Y), \+ s63_c_2_A_i(P, Y), s63_c_2_C(Y, C), A is 2 * C.
% s63_c_2_B(Taxpayer, Year, Amount): $4,400 for a head of household
% ($18,000 under (7)).
s63_c_2_B(P, Y, 4400) :- head_of_household(P, Y), \+ s63_c_7(Y).
s63_c_2_B(P, Y, A) :- head_of_household(P, Y), s63_c_7_i(Y, A).
% s63_c_2(Taxpayer, Year, Amount): the basic standard deduction, limited by (5).
s63_c_2(P, Y, A) :- basic_standard(P, Y, A0), limit_c_5(P, Y, A0, A), \+ stated_s63_c_2(P, Y, _).
basic_standard(P, Y, A) :- s63_c_2_A(P, Y, A).
basic_standard(P, Y, A) :- s63_c_2_B(P, Y, A), \+ s63_c_2_A(P, Y, _).
basic_standard(P, Y, A) :- taxpayer_year(P, Y), \+ s63_c_2_A(P, Y, _), \+ s63_c_2_B(P, Y, _), s63_c_2_C(Y, A).
limit_c_5(P, Y, A0, A) :- basic_standard(P, Y, A0), s63_c_5(P, _, Y, L), A is min(A0, L).
limit_c_5(P, Y, A0, A0) :- basic_standard(P, Y, A0), \+ s63_c_5(P, _, Y, _).

% §63(c)(3): the additional standard deduction, the sum of the (f) amounts.
% s63_c_3(Taxpayer, Amount, Year)
s63_c_3(P, A, Y) :- taxpayer_year(P, Y), \+ stated_s63_c_3(P, _, Y), aggregate_all(sum(X), s63_f_amount(P, _, X, Y), A).

% §63(c)(5): for an individual whom another taxpayer may claim under §151,
% the basic standard deduction is at most the greater of $500 and $250 plus
% earned income.
% s63_c_5(Individual, Other taxpayer, Year, Limit)
s63_c_5(X, O, Y, L) :- entitled_151(O, X, Y), O \== X, earned_income(X, Y, E), L is max(500, 250 + E).
earned_income(X, Y, E) :- individual(X), calendar_year(Y), aggregate_all(sum(A), income_item(X, Y, _, A), E).

% §63(c)(6): the standard deduction is zero for (A) a married individual
% filing separately where either spouse itemizes, (B) a nonresident alien,
% (D) an estate, trust, common trust fund or partnership.
s63_c_6(P, Y) :- s63_c_6_A(P, _, _, Y).
s63_c_6(P, Y) :- s63_c_6_B(P, Y).
s63_c_6(P, Y) :- s63_c_6_D(P, Y).
% s63_c_6_A(Taxpayer, Spouse, Itemizer, Year): married under §7703 ((g)).
s63_c_6_A(P, S, I, Y) :- married(P, S, Y), \+ joint_return_for(P, S, Y), spouse_or_self(P, S, I), itemizes(I, Y).
spouse_or_self(P, _, P) :- individual(P).
spouse_or_self(_, S, S) :- individual(S).
% s63_c_6_B(Taxpayer, Year)
s63_c_6_B(P, Y) :- nonresident_alien_during(P, Y).
% s63_c_6_D(Entity, Year)
s63_c_6_D(X, Y) :- trust_or_estate(E), agent(E, X), during_year(E, Y).
trust_or_estate(E) :- business_trust(E).

% §63(c)(7): for taxable years 2018 through 2025, $18,000 for (2)(B) and
% $12,000 for (2)(C).
s63_c_7(Y) :- calendar_year(Y), Y >= 2018, Y =< 2025.
% s63_c_7_i(Year, Amount)
s63_c_7_i(Y, 18000) :- s63_c_7(Y).
% s63_c_7_ii(Year, Amount)
s63_c_7_ii(Y, 12000) :- s63_c_7(Y).

% §63(f)(1)(A): $600 for himself if he has attained age 65 before the close
% of the year. s63_f_1_A(Taxpayer, Year)
s63_f_1_A(P, Y) :- age_at_close(P, Y, A), A >= 65.
% §63(f)(1)(B): for the spouse, if 65 and an exemption for the spouse is
% allowable under §151(b). s63_f_1_B(Taxpayer, Spouse, Year)
s63_f_1_B(P, S, Y) :- spouse_exemption_151(P, S, Y), age_at_close(S, Y, A), A >= 65.
s63_f_1_B(P, Y) :- s63_f_1_B(P, _, Y).
% §63(f)(2)(A): for himself if blind at the close of the year.
s63_f_2_A(P, Y) :- blind_at_close(P, Y).
% §63(f)(2)(B): for the spouse, if blind (at death, if the spouse died during
% the year) and an exemption for the spouse is allowable under §151(b).
s63_f_2_B(P, S, Y) :- spouse_exemption_151(P, S, Y), blind_at_close(S, Y).
s63_f_2_B(P, Y) :- s63_f_2_B(P, _, Y).
spouse_exemption_151(P, S, Y) :- s151_b_applies(P, S, Y).
spouse_exemption_151(P, S, Y) :- spouse_exemption(P, S, Y).

% §63(f)(3): $750 instead of $600 for an individual not married and not a
% surviving spouse. s63_f_3(Taxpayer, Year, Amount)
s63_f_3(P, Y, 750) :- taxpayer_year(P, Y), \+ married(P, _, Y), \+ surviving_spouse(P, Y).
f_unit(P, Y, 750) :- s63_f_3(P, Y, 750).
f_unit(P, Y, 600) :- taxpayer_year(P, Y), \+ s63_f_3(P, Y, 750).

% Each additional amount, with the subsection it comes from.
s63_f_amount(P, f_1_A, U, Y) :- s63_f_1_A(P, Y), f_unit(P, Y, U).
s63_f_amount(P, f_1_B, U, Y) :- s63_f_1_B(P, Y), f_unit(P, Y, U).
s63_f_amount(P, f_2_A, U, Y) :- s63_f_2_A(P, Y), f_unit(P, Y, U).
s63_f_amount(P, f_2_B, U, Y) :- s63_f_2_B(P, Y), f_unit(P, Y, U).
