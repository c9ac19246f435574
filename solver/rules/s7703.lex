% §7703. Determination of marital status.

% §7703(a)(1): married, determined as of the close of the taxable year, or as
% of the spouse's death if the spouse dies during the taxable year.
% s7703_a_1(Individual, Spouse, Marriage, DeterminationDay, Year)
s7703_a_1(P, Spouse, M, Day, Y) :- spouse_rel(P, Spouse, M), died(Spouse, Day), Y is year(Day),
    calendar_year(Y), marriage_span(M, S, T), S =< Day, Day =< T.
s7703_a_1(P, Spouse, M, Day, Y) :- married_at_close(P, Spouse, M, Y), Day is last_day(Y),
    \+ died_in(Spouse, Y).

% §7703(a)(2): legally separated under a decree of divorce or of separate
% maintenance, so not considered as married.
% s7703_a_2(Individual, Spouse, Marriage, Decree, Year)
s7703_a_2(P, Spouse, M, Sep, Y) :- legally_separated(P, Spouse, M, Sep, D), calendar_year(Y), D =< last_day(Y).

% §7703(b)(1): married, files a separate return, and maintains as his home a
% household that is for more than half the year the principal place of abode
% of a child for whom he is entitled to a deduction under §151.
% s7703_b_1(Individual, Spouse, Household, Child, Days, Year)
s7703_b_1(P, Spouse, H, C, N, Y) :- s7703_a_1(P, Spouse, _, _, Y), \+ joint_return_for(P, Spouse, Y),
    maintains_home_place(P, H, Y), child_of(C, P), abode_days(C, H, Y, N), year_length(Y, L), N * 2 > L,
    entitled_151(P, C, Y).
maintains_home_place(P, H, Y) :- lives_during(P, H, Y), upkeep_paid(P, H, Y, _, _).
child_of(C, P) :- parent_rel(P, C, _).
child_of(C, P) :- stepchild_rel(C, P, _).

% §7703(b)(2): furnishes over one-half of the cost of maintaining the
% household during the taxable year.
% s7703_b_2(Individual, Household, Share paid, Year)
s7703_b_2(P, X, Mine, Y) :- household_place(X, H), upkeep_share(P, H, Y, Mine, All), Mine * 2 > All.

% §7703(b)(3): during the last 6 months of the taxable year, the spouse is
% not a member of the household.
% s7703_b_3(Individual, Spouse, Household, Year)
s7703_b_3(P, Spouse, X, Y) :- household_place(X, H), married_during(P, Spouse, _, Y),
    \+ member_last_half(Spouse, H, Y).
member_last_half(X, H, Y) :- residence(R), agent(R, X), patient(R, H), period(R, S, T),
    calendar_year(Y), S =< last_day(Y), T >= date(Y, 7, 1).

% §7703(b): an individual meeting (1), (2) and (3) is not considered married.
living_apart(P, Y) :- s7703_b_1(P, Spouse, H, _, _, Y), s7703_b_2(P, H, _, Y), s7703_b_3(P, Spouse, H, Y).

% §7703: married for the taxable year, under (a) and not (b).
% s7703(Individual, Spouse, Marriage, DeterminationDay, Decree, Household, Child, Share, Year)
s7703(P, Spouse, M, Day, _, _, _, _, Y) :- s7703_a_1(P, Spouse, M, Day, Y),
    \+ s7703_a_2(P, Spouse, M, _, Y), \+ living_apart(P, Y).

% Married for year Y in the sense of §7703 (the spouse may be unknown).
married(P, Spouse, Y) :- s7703(P, Spouse, _, _, _, _, _, _, Y).
