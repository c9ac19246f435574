% §68. Overall limitation on itemized deductions.

% §68(b)(1): the applicable amount (marital status under §7703).
% s68_b_1_A(Taxpayer, Amount, Year): a joint return or a surviving spouse.
s68_b_1_A(P, 300000, Y) :- joint_return_by(P, Y).
s68_b_1_A(P, 300000, Y) :- surviving_spouse(P, Y).
% s68_b_1_B(Taxpayer, Amount, Year): a head of household.
s68_b_1_B(P, 275000, Y) :- head_of_household(P, Y), \+ s68_b_1_A(P, _, Y).
% s68_b_1_C(Taxpayer, Amount, Year): not married, not a surviving spouse
% nor a head of household.
s68_b_1_C(P, 250000, Y) :- taxpayer_year(P, Y), \+ married(P, _, Y), \+ surviving_spouse(P, Y),
    \+ head_of_household(P, Y), \+ joint_return_by(P, Y).
% s68_b_1_D(Taxpayer, Amount, Year): half of (A) for a married individual
% filing a separate return.
s68_b_1_D(P, A, Y) :- married_filing_separately(P, Y), A is 300000 / 2.

married_filing_separately(P, Y) :- married(P, S, Y), \+ joint_return_for(P, S, Y), \+ joint_return_by(P, Y).

% s68_b(Taxpayer, Applicable amount, Year)
s68_b(P, A, Y) :- s68_b_1_A(P, A, Y).
s68_b(P, A, Y) :- s68_b_1_B(P, A, Y).
s68_b(P, A, Y) :- s68_b_1_C(P, A, Y).
s68_b(P, A, Y) :- s68_b_1_D(P, A, Y), \+ s68_b_1_A(P, _, Y), \+ s68_b_1_B(P, _, Y).
applicable_amount_68(P, Y, A) :- s68_b(P, A, Y).

% §68(a)(1): 3 percent of the excess of AGI over the applicable amount.
% s68_a_1(AGI, Applicable amount, Reduction)
s68_a_1(G, A, R) :- agi(_, Y, G), applicable_amount_68(_, Y, A), G > A, R is round((G - A) * 3 / 100).
s68_a_1(G, A, R) :- asked_number(G), asked_number(A), G > A, R is round((G - A) * 3 / 100).

% §68(a)(2): 80 percent of the itemized deductions otherwise allowable.
% s68_a_2(Itemized deductions, Reduction)
s68_a_2(I, R) :- itemized_total(_, _, I), R is round(I * 80 / 100).
s68_a_2(I, R) :- asked_number(I), R is round(I * 80 / 100).

% §68(a): itemized deductions are reduced by the lesser of (1) and (2).
% s68_a(Taxpayer, Itemized deductions, Reduced deductions, Year)
s68_a(P, I, D, Y) :- itemized_total(P, Y, I), agi(P, Y, G), applicable_amount_68(P, Y, A), G > A,
    \+ s68_f(Y), R1 is round((G - A) * 3 / 100), R2 is round(I * 80 / 100), D is I - min(R1, R2).
s68_a(P, I, I, Y) :- itemized_total(P, Y, I), agi(P, Y, G), applicable_amount_68(P, Y, A), G =< A.
s68_a(P, I, I, Y) :- itemized_total(P, Y, I), s68_f(Y).

% §68(f): the section does not apply to taxable years 2018 through 2025.
% s68_f(Year)
s68_f(Y) :- calendar_year(Y), Y >= 2018, Y =< 2025.
