% §3306. Definitions: employer, wages, employment.

% -- Services, payments, places --------------------------------------------
% service(S), agent(S, Employee), patient(S, Employer): S is work done by
% Employee for Employer; payments name their service as purpose.
work(S, Employer, Employee) :- service(S), agent(S, Employee), patient(S, Employer).
work(S, Employer, Employee) :- stated_s3306_c(S, Employer, Employee, _, _, _).

paid_for(P, S, Payer, Payee) :- payment(P), purpose(P, S), agent(P, Payer), patient(P, Payee).
% Paid in cash unless the case names another medium.
in_kind(P) :- means(P, M), \+ cash_word(M).
cash_word(M) :- mentions(M, cash).
cash_payment(P) :- payment(P), \+ in_kind(P).

agricultural(S) :- purpose(S, T), mentions(T, agricultural).
agricultural(S) :- type(S, T), mentions(T, agricultural).
domestic(S) :- purpose(S, T), mentions(T, domestic).
% Where (c)(2) and (a)(3) place domestic service: a private home, a local
% college club, or a local chapter of a college fraternity or sorority.
private_home(S) :- location(S, L), mentions(L, home).
private_home(S) :- location(S, L), mentions(L, college), mentions(L, club).
private_home(S) :- location(S, L), mentions(L, fraternity).
private_home(S) :- location(S, L), mentions(L, sorority).

in_united_states(S) :- location(S, L), us_place(L).
in_united_states(S) :- service(S), \+ location(S, _).
us_place(L) :- names_usa(L).
us_place(L) :- country(L, C), names_usa(C).
% "usa", "united states", "us", "u.s.", "u.s.a.".
names_usa(X) :- mentions(X, usa).
names_usa(X) :- mentions(X, united), mentions(X, states), \+ mentions(X, mexican).
names_usa(X) :- mentions(X, us).
names_usa(X) :- mentions(X, u), mentions(X, s).
outside_united_states(S) :- service(S), location(S, _), \+ in_united_states(S).
us_citizen(X) :- citizenship(E), agent(E, X), patient(E, C), names_usa(C).
american_employer_of(X) :- american_employer(E), agent(E, X).

% -- §3306(c): employment --------------------------------------------------
% §3306(c)(A): service performed by an employee for the person employing
% him, within the United States. s3306_c_A(Service, Employer, Employee, Day)
s3306_c_A(S, R, E, D) :- work(S, R, E), in_united_states(S), service_day(S, D).
% §3306(c)(B): performed outside the United States by a citizen of the
% United States as an employee of an American employer.
% s3306_c_B(Service, Employer, Employee, Day)
s3306_c_B(S, R, E, D) :- work(S, R, E), outside_united_states(S), us_citizen(E), american_employer_of(R),
    service_day(S, D).
service_day(S, D) :- start(S, D).
service_day(S, _) :- service(S), \+ start(S, _).

% §3306(c)(1): agricultural labor, unless (A) performed for a person who
% paid $20,000 in cash for it, or employed 5 individuals on 10 days, in the
% year or the one before, and (B) not performed by an alien admitted to
% perform agricultural labor. s3306_c_1(Service, Employer, Employee, Year)
s3306_c_1(S, R, E, Y) :- work(S, R, E), agricultural(S), service_year(S, Y), \+ agricultural_employment(S, R, E, Y).
agricultural_employment(S, R, E, Y) :- work(S, R, E), s3306_c_1_A(R, Y), s3306_c_1_B(S, E).
service_year(S, Y) :- during_year(S, Y).
% s3306_c_1_A(Employer, Year)
s3306_c_1_A(R, Y) :- s3306_c_1_A_i(R, Y).
s3306_c_1_A(R, Y) :- s3306_c_1_A_ii(R, Y).
% §3306(c)(1)(A)(i): $20,000 or more paid in cash for agricultural labor.
% s3306_c_1_A_i(Employer, Year)
s3306_c_1_A_i(R, Y) :- agricultural_cash(R, Y, A), A >= 20000.
s3306_c_1_A_i(R, Y) :- agricultural_cash(R, Y0, A), A >= 20000, Y is Y0 + 1.
agricultural_cash(R, Y, A) :- employer_year(R, Y), aggregate_all(sum(X), agricultural_cash_item(R, Y, _, X), A).
agricultural_cash_item(R, Y, P, X) :- paid_for(P, S, R, _), agricultural(S), cash_payment(P), amount(P, X), start(P, D), Y is year(D).
employer_year(R, Y) :- work(_, R, _), calendar_year(Y).
% §3306(c)(1)(A)(ii): 5 or more individuals on each of 10 days, in
% different weeks. s3306_c_1_A_ii(Employer, Year)
s3306_c_1_A_ii(R, Y) :- s3306_a_2_B(R, Y).
% §3306(c)(1)(B): not performed by an alien admitted to perform agricultural
% labor. s3306_c_1_B(Service, Employee)
s3306_c_1_B(S, E) :- work(S, _, E), \+ admitted_farm_worker(E).
admitted_farm_worker(E) :- migration(M), agent(M, E), purpose(M, T), mentions(T, agricultural), \+ us_citizen(E).

% §3306(c)(2): domestic service in a private home unless performed for a
% person who paid $1,000 in cash for it in the year or the one before.
% s3306_c_2(Service, Employer, Year)
s3306_c_2(S, R, Y) :- work(S, R, _), domestic(S), private_home(S), service_year(S, Y), \+ domestic_employer(R, Y).
domestic_cash(R, Y, A) :- employer_year(R, Y), aggregate_all(sum(X), domestic_cash_item(R, Y, _, X), A).
domestic_cash_item(R, Y, P, X) :- paid_for(P, S, R, _), domestic(S), cash_payment(P), amount(P, X), start(P, D), Y is year(D).
domestic_employer(R, Y) :- domestic_cash(R, Y, A), A >= 1000.
domestic_employer(R, Y) :- domestic_cash(R, Y0, A), A >= 1000, Y is Y0 + 1.

% §3306(c)(5): service in the employ of one's son, daughter or spouse, and
% by a child under 21 in the employ of his father or mother.
% s3306_c_5(Service, Employer, Employee, Day)
s3306_c_5(S, R, E, D) :- work(S, R, E), parent(E, R), service_day(S, D).
s3306_c_5(S, R, E, D) :- work(S, R, E), spouse_rel(E, R, M), service_day(S, D), married_while_serving(M, S).
s3306_c_5(S, R, E, D) :- work(S, R, E), parent(R, E), born(E, B), start(S, D), D < add_years(B, 21).
% The marriage and the service share a day.
married_while_serving(M, S) :- marriage_span(M, A, B), period(S, C, D), C =< B, D >= A.

% Employers that are governments or organizations, read from their names.
us_government(X) :- mentions(X, government), names_usa(X).
us_government(X) :- mentions(X, government), mentions(X, federal).
% A State or a political subdivision of one ("maryland state government",
% "baltimore county").
state_government(X) :- mentions(X, state), \+ us_government(X).
state_government(X) :- local_government_word(W), mentions(X, W), \+ us_government(X).
local_government_word(commonwealth).
local_government_word(county).
local_government_word(municipality).
local_government_word(township).
foreign_government(X) :- mentions(X, government), \+ us_government(X), \+ state_government(X).
% §3306(c)(6): in the employ of the United States Government.
% s3306_c_6(Service)
s3306_c_6(S) :- work(S, R, _), us_government(R).
% §3306(c)(7): in the employ of a State or political subdivision.
% s3306_c_7(Service)
s3306_c_7(S) :- work(S, R, _), state_government(R).

% §3306(c)(10)(A): in the employ of a school, college or university, by
% (i) a student enrolled and regularly attending classes there, or (ii)
% the spouse of such a student. s3306_c_10_A(Service, School, Employee, Day)
s3306_c_10_A(S, R, E, D) :- work(S, R, E), school(R), service_day(S, D), s3306_c_10_A_i(E, R, D).
s3306_c_10_A(S, R, E, D) :- work(S, R, E), school(R), service_day(S, D), s3306_c_10_A_ii(_, E, R, D).
school(R) :- educational_institution(I), agent(I, R).
% s3306_c_10_A_i(Student, School, Day)
s3306_c_10_A_i(E, R, D) :- enrolled_on(E, R, D), attending_on(E, R, D).
enrolled_on(E, R, D) :- enrollment(X), agent(X, E), patient(X, R), period(X, S, T), work(_, R, _), service_day_of(R, D), S =< D, D =< T.
attending_on(E, R, D) :- attending_classes(X), agent(X, E), location(X, R), period(X, S, T), service_day_of(R, D), S =< D, D =< T.
attending_on(E, R, D) :- attending_classes(X), agent(X, E), patient(X, R), period(X, S, T), service_day_of(R, D), S =< D, D =< T.
service_day_of(R, D) :- work(S, R, _), start(S, D).
service_day_of(R, D) :- work(_, R, _), asked_date(D).
% s3306_c_10_A_ii(Student, Spouse, School, Day)
s3306_c_10_A_ii(St, E, R, D) :- s3306_c_10_A_i(St, R, D), spouse_rel(E, St, M), marriage_span(M, A, B),
    A =< D, D =< B.

% §3306(c)(10)(B): in the employ of a hospital, by a patient of the hospital.
% s3306_c_10_B(Service, Hospital, Patient, Day)
s3306_c_10_B(S, R, E, D) :- work(S, R, E), hospital_entity(R), service_day(S, D), medical_patient(X), agent(X, E),
    patient(X, R), period(X, A, B), A =< D, D =< B.
hospital_entity(R) :- hospital(H), agent(H, R).

% §3306(c)(11): in the employ of a foreign government.
% s3306_c_11(Service, Employer, Employee)
s3306_c_11(S, R, E) :- work(S, R, E), foreign_government(R).

% §3306(c)(13): as a student nurse in the employ of a hospital or a nurses'
% training school, by one enrolled and attending classes at such a school.
% s3306_c_13(Service, Employer, Employee, Day)
s3306_c_13(S, R, E, D) :- work(S, R, E), nursing_employer(R), service_day(S, D), nursing_school(N),
    enrolled_on(E, N, D), attending_on(E, N, D).
nursing_school(N) :- nurses_training_school(X), agent(X, N).
nursing_employer(R) :- nursing_school(R).
nursing_employer(R) :- hospital_entity(R).

% §3306(c)(16): in the employ of an international organization.
% s3306_c_16(Service, Employer, Employee)
s3306_c_16(S, R, E) :- work(S, R, E), international_organization(X), agent(X, R).

% §3306(c)(21): by a person committed to a penal institution.
% s3306_c_21(Service, Employer, Employee, Day)
s3306_c_21(S, R, E, D) :- work(S, R, E), service_day(S, D), incarceration(X), agent(X, E), patient(X, J),
    penal_institution(P), agent(P, J), period(X, A, B), A =< D, D =< B.

% A service excepted from employment.
excepted(S) :- s3306_c_1(S, _, _, _).
excepted(S) :- s3306_c_2(S, _, _).
excepted(S) :- s3306_c_5(S, _, _, _).
excepted(S) :- s3306_c_6(S).
excepted(S) :- s3306_c_7(S).
excepted(S) :- s3306_c_10_A(S, _, _, _).
excepted(S) :- s3306_c_10_B(S, _, _, _).
excepted(S) :- s3306_c_11(S, _, _).
excepted(S) :- s3306_c_13(S, _, _, _).
excepted(S) :- s3306_c_16(S, _, _).
excepted(S) :- s3306_c_21(S, _, _, _).

% §3306(c): employment. s3306_c(Service, Employer, Employee, Payment, Day, Unused)
s3306_c(S, R, E, _, D, _) :- s3306_c_A(S, R, E, D), \+ excepted(S).
s3306_c(S, R, E, _, D, _) :- s3306_c_B(S, R, E, D), \+ excepted(S).
employment(S, R, E) :- s3306_c(S, R, E, _, _, _).

% Days on which Employer employed Employee, stated day by day, counted for
% (a)(1)(B): neither domestic service ((a)(1), last sentence) nor
% agricultural labor, for which (a)(2) counts the days.
employment_day(R, E, D) :- s3306_c(S, R, E, _, D, _), D == D, \+ domestic_item(S), \+ agricultural_item(S).

% -- §3306(b): wages ------------------------------------------------------
% Remuneration for employment, before the exceptions.
remuneration(P, S, R, E, A) :- paid_for(P, S, R, E), employment(S, R, E), amount(P, A).
remuneration(P, S, R, E, A) :- payment(P), purpose(P, S), agent(P, R), beneficiary(P, E), employment(S, R, E), amount(P, A).
% Paid into a plan for the employee, for his work.
remuneration(P, S, R, E, A) :- payment(P), purpose(P, S), agent(P, R), patient(P, F), plan(F), beneficiary(F, E),
    employment(S, R, E), amount(P, A).

% §3306(b)(2): payments under a plan for employees, on account of (A)
% sickness or accident disability, or (C) death. s3306_b_2_A(Plan or payment)
s3306_b_2_A(X) :- plan_payment(X, T), mentions(T, sickness).
s3306_b_2_A(X) :- plan_payment(X, T), mentions(T, disability).
s3306_b_2_C(X) :- plan_payment(X, T), mentions(T, death).
plan_payment(F, T) :- plan(F), purpose(F, T), mentions(T, employees).
plan_payment(P, T) :- payment(P), patient(P, F), plan(F), purpose(P, T), mentions(T, employees).
plan_payment(F, T) :- plan(F), payment(P), patient(P, F), purpose(P, T), mentions(T, employees).

% §3306(b)(7): remuneration in any medium other than cash for service not in
% the course of the employer's trade or business.
% s3306_b_7(Payment, Service, Employer, Employee)
s3306_b_7(P, S, R, E) :- paid_for(P, S, R, E), in_kind(P), \+ in_course_of_business(S, R).
in_course_of_business(S, R) :- business(B), agent(B, R), type(B, T), type(S, T).

% §3306(b)(10): payments upon or after termination of employment because of
% death or retirement for disability (A), under a plan of the employer (B).
% s3306_b_10_A(Payment, Service, Employee, Employer, Termination, Reason)
s3306_b_10_A(P, S, E, R, X, W) :- payment(P), agent(P, R), patient(P, E), purpose(P, X), termination(X),
    patient(X, S), work(S, R, E), termination_reason(X, E, W).
termination_reason(X, E, W) :- reason(X, W), disability(W), agent(W, E).
termination_reason(X, E, W) :- reason(X, W), death(W), agent(W, E).
termination_reason(X, E, W) :- termination(X), retirement(W), agent(W, E), reason(W, T), mentions(T, disability).
% s3306_b_10_B(Employer, Payment, Plan)
s3306_b_10_B(R, P, F) :- payment(P), agent(P, R), means(P, F), plan(F), agent(F, R).

% §3306(b)(11): remuneration for agricultural labor paid in any medium
% other than cash. s3306_b_11(Payment, Service)
s3306_b_11(P, S) :- payment(P), purpose(P, S), agricultural(S), in_kind(P).

% §3306(b)(15): payments to a survivor or the estate of a former employee
% after the calendar year in which he died.
% s3306_b_15(Payment, Employer, Recipient, Employee)
s3306_b_15(P, R, X, E) :- payment(P), agent(P, R), patient(P, X), purpose(P, S), work(S, R, E),
    died(E, D), start(P, PD), year(PD) > year(D), X \== E.

excluded_payment(P) :- s3306_b_2_A(P).
excluded_payment(P) :- s3306_b_2_C(P).
excluded_payment(P) :- payment(P), patient(P, F), s3306_b_2_A(F).
excluded_payment(P) :- payment(P), patient(P, F), s3306_b_2_C(F).
excluded_payment(P) :- s3306_b_7(P, _, _, _).
excluded_payment(P) :- s3306_b_10_A(P, _, _, _, _, _), s3306_b_10_B(_, P, _).
excluded_payment(P) :- s3306_b_11(P, _).
excluded_payment(P) :- s3306_b_15(P, _, _, _).

% §3306(b): wages: remuneration for employment save the exceptions.
% s3306_b(Wages, Payment, Service, Payer, Payee, Unused x4, Employer, Employee)
s3306_b(A, P, S, R, E, _, _, _, _, R, E) :- remuneration(P, S, R, E, A), \+ excluded_payment(P).

% Wages paid by Employer to Employee in Year, dated by the payment (or,
% when no payment is named, by the work: an unnamed payment has no date).
wage_item(R, E, Y, P, A) :- s3306_b(A, P, _, R, E, _, _, _, _, _, _), nonvar(P), start(P, D), Y is year(D).
wage_item(R, E, Y, S, A) :- s3306_b(A, P, S, R, E, _, _, _, _, _, _), var(P), end(S, D), Y is year(D).
% §3306(b)(1): only the first $7,000 paid to an individual in a year.
% (Of an employer under (a)(3) alone, only the wages for domestic service:
% (a)(4).)
wages_to(R, E, Y, W) :- taxed_wage_item(R, E, Y, _, _), aggregate_all(sum(A), taxed_wage_item(R, E, Y, _, A), T),
    W is min(T, 7000).
% (Each employee's wages stay distinct in the sum through the employee.)
total_wages(R, Y, W) :- taxed_wage_item(R, _, Y, _, _), aggregate_all(sum(A), wages_to(R, _, Y, A), W).
total_wages(R, Y, W) :- total_wages_employer(R, W, S, _), Y is year(S).

% -- §3306(a): employer ---------------------------------------------------
% §3306(a)(1)(A): paid wages of $1,500 or more in the year or the one before
% (not counting domestic service, (a)(1) last sentence).
% s3306_a_1_A(Employer, Year, Wages)
s3306_a_1_A(R, Y, W) :- nondomestic_wages(R, Y, W), W >= 1500.
s3306_a_1_A(R, Y, W) :- nondomestic_wages(R, Y0, W), W >= 1500, Y is Y0 + 1, calendar_year(Y).
nondomestic_wages(R, Y, W) :- wage_item(R, _, Y, _, _), aggregate_all(sum(A), nondomestic_wage(R, Y, _, A), W).
% Neither domestic service ((a)(1), last sentence) nor agricultural labor,
% for which (a)(2) defines the employer.
nondomestic_wage(R, Y, X, A) :- wage_item(R, _, Y, X, A), \+ domestic_item(X), \+ agricultural_item(X).
domestic_item(P) :- payment(P), purpose(P, S), domestic(S).
domestic_item(S) :- domestic(S).

% §3306(a)(1)(B): employed at least one individual on each of some 10 days,
% each in a different calendar week, in the year or the one before.
% s3306_a_1_B(Employer, Year)
s3306_a_1_B(R, Y) :- employment_weeks(R, Y, N), N >= 10.
s3306_a_1_B(R, Y) :- employment_weeks(R, Y0, N), N >= 10, Y is Y0 + 1, calendar_year(Y).
employment_week(R, Y, W) :- employment_day(R, _, D), D > "0001-01-01", Y is year(D), W is week(D).
employment_weeks(R, Y, N) :- employment_week(R, Y, _), aggregate_all(count, employment_week(R, Y, _), N).


% §3306(a)(1): s3306_a_1(Employer, Year, Wages)
s3306_a_1(R, Y, W) :- s3306_a_1_A(R, Y, W).
s3306_a_1(R, Y, _) :- s3306_a_1_B(R, Y).

% §3306(a)(2)(A): paid wages of $20,000 or more for agricultural labor.
% s3306_a_2_A(Employer, Year, Wages)
% (Wages as (b) defines them: at most $7,000 a year for each individual.)
s3306_a_2_A(R, Y, W) :- agricultural_wages(R, Y, W), W >= 20000.
s3306_a_2_A(R, Y, W) :- agricultural_wages(R, Y0, W), W >= 20000, Y is Y0 + 1, calendar_year(Y).
agricultural_wages(R, Y, W) :- farm_wages_to(R, _, Y, _), aggregate_all(sum(A), farm_wages_to(R, _, Y, A), W).
farm_wage(R, E, Y, X, A) :- wage_item(R, E, Y, X, A), agricultural_item(X).
farm_wages_to(R, E, Y, W) :- farm_wage(R, E, Y, _, _), aggregate_all(sum(A), farm_wage(R, E, Y, _, A), T), W is min(T, 7000).
agricultural_item(P) :- payment(P), purpose(P, S), agricultural(S).
agricultural_item(S) :- agricultural(S).
% §3306(a)(2)(B): at least 5 individuals in agricultural labor on each of
% some 10 days, in different calendar weeks. s3306_a_2_B(Employer, Year)
s3306_a_2_B(R, Y) :- farm_weeks(R, Y, N), N >= 10.
s3306_a_2_B(R, Y) :- farm_weeks(R, Y0, N), N >= 10, Y is Y0 + 1, calendar_year(Y).
% (Individuals employed in agricultural labor, whether or not that labor is
% employment under (c).)
farm_worker_on(R, D, E) :- work(S, R, E), start(S, D), agricultural(S).
farm_worker_on(R, D, E) :- stated_s3306_c(S, R, E, _, D, _), D > "0001-01-01", agricultural(S).
farm_day(R, D) :- farm_worker_on(R, D, _), aggregate_all(count, farm_worker_on(R, D, _), N), N >= 5.
farm_week(R, Y, W) :- farm_day(R, D), Y is year(D), W is week(D).
farm_weeks(R, Y, N) :- farm_week(R, Y, _), aggregate_all(count, farm_week(R, Y, _), N).

% §3306(a)(3): domestic service: paid $1,000 or more in cash for it.
% s3306_a_3(Employer, Year, Wages)
s3306_a_3(R, Y, W) :- domestic_cash(R, Y, W), W >= 1000.
s3306_a_3(R, Y, W) :- domestic_cash(R, Y0, W), W >= 1000, Y is Y0 + 1, calendar_year(Y).

% §3306(a)(4): an employer under (3) alone is no employer with respect to
% wages paid for other service.
domestic_employer_only(R, Y) :- s3306_a_3(R, Y, _), \+ s3306_a_1(R, Y, _), \+ s3306_a_2_A(R, Y, _),
    \+ s3306_a_2_B(R, Y).
taxed_wage_item(R, E, Y, X, A) :- wage_item(R, E, Y, X, A), \+ domestic_employer_only(R, Y).
taxed_wage_item(R, E, Y, X, A) :- wage_item(R, E, Y, X, A), domestic_employer_only(R, Y), domestic_item(X).

% §3306(a): s3306_a(Employer, Year, Wages)
s3306_a(R, Y, W) :- s3306_a_1(R, Y, W).
s3306_a(R, Y, W) :- s3306_a_2_A(R, Y, W).
s3306_a(R, Y, _) :- s3306_a_2_B(R, Y).
s3306_a(R, Y, W) :- s3306_a_3(R, Y, W).
