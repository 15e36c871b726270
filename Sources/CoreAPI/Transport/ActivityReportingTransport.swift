/// A transport that leaves its timeouts to the session: when ``TransportOptions/activity`` is set, it
/// touches that clock for every byte it sends or receives (the response head included) and enforces
/// neither the idle timeout nor the deadline itself; the session's one deadline timer ends the exchange
/// by cancelling the task that runs ``Transport/send(_:options:)``. Without the clock (a caller other
/// than the session) it enforces both, as every ``Transport`` does.
///
/// It spares each exchange a watchdog of its own: a task, a sleep and a task group per request.
package protocol ActivityReportingTransport: Transport {}
