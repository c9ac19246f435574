% §1. Tax imposed.

% The rate tables: (base, rate in percent, threshold, upper limit) of each
% bracket, written out from subsections (a) to (d).
% bracket(Subsection, Clause, Base tenths of a dollar... ) is spelled out per
% clause below so that each clause is its own predicate.

% A taxable income to look up: derived, stated, or asked.
ti_candidate(TI) :- s63(_, _, TI).
ti_candidate(TI) :- asked_number(TI).

% §1(a): married individuals filing joint returns and surviving spouses.
s1_a_i(TI, T) :- ti_candidate(TI), TI =< 36900, T is round(TI * 15 / 100).
s1_a_ii(TI, T) :- ti_candidate(TI), TI > 36900, TI =< 89150, T is round(5535 + (TI - 36900) * 28 / 100).
s1_a_iii(TI, T) :- ti_candidate(TI), TI > 89150, TI =< 140000, T is round(20165 + (TI - 89150) * 31 / 100).
s1_a_iv(TI, T) :- ti_candidate(TI), TI > 140000, TI =< 250000, T is round(3592850 / 100 + (TI - 140000) * 36 / 100).
s1_a_v(TI, T) :- ti_candidate(TI), TI > 250000, T is round(7552850 / 100 + (TI - 250000) * 396 / 1000).
rate_a(TI, T) :- s1_a_i(TI, T).
rate_a(TI, T) :- s1_a_ii(TI, T).
rate_a(TI, T) :- s1_a_iii(TI, T).
rate_a(TI, T) :- s1_a_iv(TI, T).
rate_a(TI, T) :- s1_a_v(TI, T).

% §1(b): heads of households.
s1_b_i(TI, T) :- ti_candidate(TI), TI =< 29600, T is round(TI * 15 / 100).
s1_b_ii(TI, T) :- ti_candidate(TI), TI > 29600, TI =< 76400, T is round(4440 + (TI - 29600) * 28 / 100).
s1_b_iii(TI, T) :- ti_candidate(TI), TI > 76400, TI =< 127500, T is round(17544 + (TI - 76400) * 31 / 100).
s1_b_iv(TI, T) :- ti_candidate(TI), TI > 127500, TI =< 250000, T is round(33385 + (TI - 127500) * 36 / 100).
s1_b_v(TI, T) :- ti_candidate(TI), TI > 250000, T is round(77485 + (TI - 250000) * 396 / 1000).
rate_b(TI, T) :- s1_b_i(TI, T).
rate_b(TI, T) :- s1_b_ii(TI, T).
rate_b(TI, T) :- s1_b_iii(TI, T).
rate_b(TI, T) :- s1_b_iv(TI, T).
rate_b(TI, T) :- s1_b_v(TI, T).

% §1(c): unmarried individuals (other than surviving spouses and heads of
% households).
s1_c_i(TI, T) :- ti_candidate(TI), TI =< 22100, T is round(TI * 15 / 100).
s1_c_ii(TI, T) :- ti_candidate(TI), TI > 22100, TI =< 53500, T is round(3315 + (TI - 22100) * 28 / 100).
s1_c_iii(TI, T) :- ti_candidate(TI), TI > 53500, TI =< 115000, T is round(12107 + (TI - 53500) * 31 / 100).
s1_c_iv(TI, T) :- ti_candidate(TI), TI > 115000, TI =< 250000, T is round(31172 + (TI - 115000) * 36 / 100).
s1_c_v(TI, T) :- ti_candidate(TI), TI > 250000, T is round(79772 + (TI - 250000) * 396 / 1000).
rate_c(TI, T) :- s1_c_i(TI, T).
rate_c(TI, T) :- s1_c_ii(TI, T).
rate_c(TI, T) :- s1_c_iii(TI, T).
rate_c(TI, T) :- s1_c_iv(TI, T).
rate_c(TI, T) :- s1_c_v(TI, T).

% §1(d): married individuals filing separate returns.
s1_d_i(TI, T) :- ti_candidate(TI), TI =< 18450, T is round(TI * 15 / 100).
s1_d_ii(TI, T) :- ti_candidate(TI), TI > 18450, TI =< 44575, T is round(276750 / 100 + (TI - 18450) * 28 / 100).
s1_d_iii(TI, T) :- ti_candidate(TI), TI > 44575, TI =< 70000, T is round(1008250 / 100 + (TI - 44575) * 31 / 100).
s1_d_iv(TI, T) :- ti_candidate(TI), TI > 70000, TI =< 125000, T is round(1796425 / 100 + (TI - 70000) * 36 / 100).
s1_d_v(TI, T) :- ti_candidate(TI), TI > 125000, T is round(3776425 / 100 + (TI - 125000) * 396 / 1000).
rate_d(TI, T) :- s1_d_i(TI, T).
rate_d(TI, T) :- s1_d_ii(TI, T).
rate_d(TI, T) :- s1_d_iii(TI, T).
rate_d(TI, T) :- s1_d_iv(TI, T).
rate_d(TI, T) :- s1_d_v(TI, T).

% Taxable income for the year: stated (s63) or derived.
taxable_income(P, Y, TI) :- stated_s63(P, Y, TI).
taxable_income(P, Y, TI) :- s63(P, Y, TI).

% §1(a): every married individual who makes a joint return, and every
% surviving spouse. s1_a(Taxpayer, Year, Taxable income, Tax)
s1_a(P, Y, TI, T) :- filing_jointly_or_surviving(P, Y), taxable_income(P, Y, TI), rate_a(TI, T).
filing_jointly_or_surviving(P, Y) :- joint_return_by(P, Y).
filing_jointly_or_surviving(P, Y) :- surviving_spouse(P, Y).

% §1(b): every head of a household. s1_b(Taxpayer, Year, Taxable income, Tax)
s1_b(P, Y, TI, T) :- head_of_household(P, Y), \+ filing_jointly_or_surviving(P, Y),
    taxable_income(P, Y, TI), rate_b(TI, T).

% §1(c): every individual not married, not a surviving spouse, not a head of
% household. s1_c(Taxpayer, Year, Taxable income, Tax)
s1_c(P, Y, TI, T) :- taxpayer_year(P, Y), \+ married(P, _, Y), \+ surviving_spouse(P, Y),
    \+ head_of_household(P, Y), \+ joint_return_by(P, Y), taxable_income(P, Y, TI), rate_c(TI, T).

% §1(d): every married individual who does not make a joint return.
% s1_d(Taxpayer, Spouse, Year, Taxable income, Tax)
s1_d(P, S, Y, TI, T) :- married(P, S, Y), \+ joint_return_by(P, Y), \+ surviving_spouse(P, Y),
    taxable_income(P, Y, TI), rate_d(TI, T).

% The income tax for the year under §1.
income_tax(P, Y, T) :- s1_a(P, Y, _, T).
income_tax(P, Y, T) :- s1_b(P, Y, _, T).
income_tax(P, Y, T) :- s1_c(P, Y, _, T).
income_tax(P, Y, T) :- s1_d(P, _, Y, _, T).

% The tax a person owes for a year: the income tax of §1 and, as an
% employer, the excise tax of §3301.
tax(P, Y, T) :- income_tax(P, Y, I), excise_tax(P, Y, E), T is I + E.
excise_tax(P, Y, E) :- s3301(P, Y, _, E).
excise_tax(P, Y, 0) :- taxpayer_year(P, Y), \+ s3301(P, Y, _, _).
