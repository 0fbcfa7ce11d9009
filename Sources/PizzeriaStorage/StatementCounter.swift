internal import CPizzeriaSQLite
import Synchronization

/// Counts the statements SQLite starts on a connection, top-level statements and trigger
/// programs apart (`sqlite3_trace_v2` with `SQLITE_TRACE_STMT`, <https://sqlite.org/c3ref/trace_v2.html>):
/// what a measurement of "statements per booking" reads. Not for production paths: the trace
/// callback runs for every statement and every trigger.
public final class StatementCounter: Sendable {
    private let statements = Atomic<Int>(0)
    private let triggers = Atomic<Int>(0)

    /// A counter at zero.
    public init() {}

    /// The statements and trigger programs started since the last reset, then zero again.
    public func take() -> (statements: Int, triggers: Int) {
        (statements.exchange(0, ordering: .relaxed), triggers.exchange(0, ordering: .relaxed))
    }

    /// Counts one start reported by a `SQLITE_TRACE_STMT` callback (`text`, its X argument):
    /// SQLite reports a trigger program as the comment `-- TRIGGER name`.
    public func record(_ text: UnsafePointer<CChar>?) {
        if let text, text[0] == 45, text[1] == 45, text[2] == 32, text[3] == 84 {  // "-- T"
            triggers.add(1, ordering: .relaxed)
        } else {
            statements.add(1, ordering: .relaxed)
        }
    }
}

extension Connection {
    /// Counts every statement and trigger program this connection starts into `counter`; `nil`
    /// stops counting.
    func countStatements(into counter: StatementCounter?) {
        statementCounter = counter
        guard let counter else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            return
        }
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, text in
                guard let context else { return 0 }
                Unmanaged<StatementCounter>.fromOpaque(context).takeUnretainedValue()
                    .record(text?.assumingMemoryBound(to: CChar.self))
                return 0
            }, Unmanaged.passUnretained(counter).toOpaque())
    }
}

extension Database {
    /// Counts the statements and trigger programs the writer connection starts into `counter`
    /// (`nil` stops): `pizzeria-bench` reports them per operation.
    public func countWriterStatements(into counter: StatementCounter?) throws {
        try withWriter { $0.countStatements(into: counter) }
    }
}
