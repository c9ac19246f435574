% §3301. Rate of tax: 6 percent of the total wages paid by an employer
% during the calendar year. s3301(Employer, Year, Total wages, Tax)
s3301(R, Y, W, T) :- s3306_a(R, Y, _), total_wages(R, Y, W), T is round(W * 6 / 100).
