/// The most a call that must end "at once" may take in these tests.
///
/// The behaviour each such test rules out waits 30 s or longer, so this bound tells the two apart, also
/// when the unit tests share two cores with the loopback suites and every task resumes seconds late
/// (5.4 s was seen against an earlier 5 s bound): what it bounds is the code's 30 s, not the machine.
let promptly: Duration = .seconds(15)
