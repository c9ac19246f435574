% §151. Allowance of deductions for personal exemptions.

% Taxpayer is entitled to an exemption under §151 for Individual in Year,
% whatever its amount: a dependent, a spouse who qualifies under (b), or
% what the case states (`stated_p` holds the case's own `p` facts).
entitled_151(T, X, Y) :- dependent(X, T, Y).
entitled_151(T, S, Y) :- spouse_exemption(T, S, Y).
entitled_151(T, X, Y) :- stated_s151_b(T, X, _, Y).
entitled_151(T, X, Y) :- stated_s151_b(T, X, Y).
entitled_151(T, X, Y) :- stated_s151_c(T, X, _, Y).
entitled_151(T, X, Y) :- s151_b_applies(T, X, Y).
entitled_151(T, T, Y) :- s151_b_applies(T, Y).
entitled_151(T, X, Y) :- s151_c_applies(T, X, Y).
entitled_151(T, X, Y) :- stated_s151_d(T, X, _, Y).
entitled_151(T, X, Y) :- stated_s151(T, _, L, _, Y), member_of(X, L).

% §151(a): the exemptions are allowed as deductions; their total.
% s151_a(Taxpayer, Total, Year)
s151_a(T, Total, Y) :- taxpayer_year(T, Y),
    aggregate_all(sum(A), exemption_151(T, _, A, Y), Total).
exemption_151(T, X, A, Y) :- s151_b(T, X, A, Y).
exemption_151(T, X, A, Y) :- s151_c(T, X, A, Y).
% On a joint return both spouses are taxpayers: the return carries the
% spouse's own exemption under (b) too.
exemption_151(T, S, A, Y) :- joint_return_for(T, S, Y), s151_b(S, S, A, Y).
taxpayer_year(T, Y) :- individual(T), calendar_year(Y).

% §151(b): an exemption for the taxpayer; and one for the spouse if no
% joint return is made, and the spouse has no gross income for the
% calendar year and is not the dependent of another taxpayer.
% s151_b(Taxpayer, Individual, Amount, Year)
s151_b(T, T, A, Y) :- taxpayer_year(T, Y), exemption_amount(T, Y, A).
s151_b(T, S, A, Y) :- spouse_exemption(T, S, Y), exemption_amount(T, Y, A).

spouse_exemption(T, S, Y) :- married_during(T, S, _, Y), \+ joint_return_for(T, S, Y),
    \+ has_income(S, Y), \+ dependent_of_other(S, T, Y).
s151_b(T, X, Y) :- s151_b(T, X, _, Y).
dependent_of_other(S, T, Y) :- dependent(S, O, Y), individual(T), O \== T.

% §151(c): an exemption for each dependent (§152) of the taxpayer.
% s151_c(Taxpayer, Dependent, Amount, Year)
s151_c(T, D, A, Y) :- dependent(D, T, Y), exemption_amount(T, Y, A).
s151_c(T, D, A, Y) :- joint_return_for(T, S, Y), dependent(D, S, Y), \+ dependent(D, T, Y), exemption_amount(T, Y, A).

% §151(d)(1): the exemption amount is $2,000.
s151_d_1(2000).

% §151(d)(2): zero for an individual whom another taxpayer may claim.
% s151_d_2(Other taxpayer, Individual, Unused, Amount, Year)
s151_d_2(O, X, _, 0, Y) :- entitled_151(O, X, Y), O \== X.

% §151(d)(3)(B): the applicable percentage, 2 points per $2,500 (or
% fraction) of AGI over the §68(b) applicable amount ($1,250 for a married
% individual filing separately), at most 100.
% s151_d_3_B(Percentage, Taxpayer, AGI, Year, Applicable amount)
s151_d_3_B(Pct, T, Agi, Y, App) :- agi(T, Y, Agi), applicable_amount_68(T, Y, App), Agi > App,
    phaseout_step(T, Y, Step), Pct is min(100, 2 * ceiling((Agi - App) / Step)).
phaseout_step(T, Y, 1250) :- married_filing_separately(T, Y).
phaseout_step(T, Y, 2500) :- taxpayer_year(T, Y), \+ married_filing_separately(T, Y).

% §151(d)(3)(A): the exemption amount is reduced by the applicable percentage.
% s151_d_3_A(Taxpayer, AGI, Applicable amount, Percentage, Amount, Reduced, Year)
s151_d_3_A(T, Agi, App, Pct, A, R, Y) :- s151_d_3_B(Pct, T, Agi, Y, App), s151_d_1(A),
    R is A - A * Pct / 100.

% §151(d)(5): zero for taxable years 2018 through 2025.
% s151_d_5(Amount, Year)
s151_d_5(0, Y) :- calendar_year(Y), Y >= 2018, Y =< 2025.

% The exemption amount of Taxpayer for Year under §151(d).
exemption_amount(T, Y, 0) :- taxpayer_year(T, Y), s151_d_5(0, Y).
exemption_amount(T, Y, 0) :- taxpayer_year(T, Y), \+ s151_d_5(0, Y), s151_d_2(_, T, _, 0, Y).
exemption_amount(T, Y, R) :- taxpayer_year(T, Y), \+ s151_d_5(0, Y), \+ s151_d_2(_, T, _, 0, Y),
    s151_d_3_A(T, _, _, _, _, R, Y).
exemption_amount(T, Y, A) :- taxpayer_year(T, Y), \+ s151_d_5(0, Y), \+ s151_d_2(_, T, _, 0, Y),
    \+ s151_d_3_B(_, T, _, Y, _), s151_d_1(A).
