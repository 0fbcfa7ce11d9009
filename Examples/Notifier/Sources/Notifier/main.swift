import Foundation

/// `pizzeria-notifier [--outbox DIR] [--lang it|en]`: one notification on stdin (what `pizzeria
/// notify run --exec` writes), rendered as `DIR/TOKEN.sms.txt` and `DIR/TOKEN.email.txt`.
///
/// Exactly once per event: the files are named by the event's token and put in place by a rename,
/// so a redelivery (the notifier was killed while this ran) finds them and sends nothing again.
/// The language is `--lang`, else Italian for an Italian number (+39), else English. An order
/// without a phone, or a kind without a template (paid, edited…), sends nothing and succeeds.
/// Exit 0 delivered or nothing to do; 65 unreadable input; 74 the outbox cannot be written.

struct Notification: Decodable {
    struct Event: Decodable {
        struct Order: Decodable {
            let shortID: String
            let user: String
            let customerName: String?
            let customerPhone: String?
            let pickupLocal: String
            let total: String
            let status: String
            enum CodingKeys: String, CodingKey {
                case shortID = "short_id", user, customerName = "customer_name", customerPhone = "customer_phone"
                case pickupLocal = "pickup_local", total, status
            }
        }
        let order: Order
        let detail: String?
    }
    let token: String
    let kind: String
    let redelivery: Bool
    let event: Event
}

enum Language: String { case it, en }

struct Message {
    let sms: String
    let subject: String
    let body: String
}

/// The templates: one sentence per kind, per language.
func render(_ note: Notification, in language: Language) -> Message? {
    let order = note.event.order
    let name = order.customerName ?? order.user
    let time = String(order.pickupLocal.suffix(5))
    let day = String(order.pickupLocal.prefix(10))
    let short = order.shortID  // the 8 characters the counter shows and takes for this order
    let sentence: String?
    switch (language, note.kind) {
    case (.it, "placed"):
        sentence = "il tuo ordine \(short) è confermato per il ritiro alle \(time) del \(day) (€\(order.total))."
    case (.it, "moved"): sentence = "il ritiro del tuo ordine \(short) è stato spostato alle \(time) del \(day)."
    case (.it, "delayed"):
        sentence = "ci scusiamo: il tuo ordine \(short) sarà pronto alle \(time), un po' più tardi del previsto."
    case (.it, "ready"): sentence = "il tuo ordine \(short) è pronto: ti aspettiamo!"
    case (.it, "no_show"):
        sentence = "il tuo ordine \(short) delle \(time) non è stato ritirato. Chiamaci se c'è stato un problema."
    case (.it, "cancelled"): sentence = "il tuo ordine \(short) del \(day) alle \(time) è stato annullato."
    case (.it, "refunded"): sentence = "abbiamo registrato un rimborso per il tuo ordine \(short)."
    case (.en, "placed"):
        sentence = "your order \(short) is confirmed for pickup at \(time) on \(day) (€\(order.total))."
    case (.en, "moved"): sentence = "the pickup of your order \(short) moved to \(time) on \(day)."
    case (.en, "delayed"):
        sentence = "sorry: your order \(short) will be ready at \(time), a little later than planned."
    case (.en, "ready"): sentence = "your order \(short) is ready: see you soon!"
    case (.en, "no_show"):
        sentence = "your order \(short) for \(time) was not collected. Call us if something went wrong."
    case (.en, "cancelled"): sentence = "your order \(short) for \(time) on \(day) was cancelled."
    case (.en, "refunded"): sentence = "we have recorded a refund for your order \(short)."
    default: sentence = nil
    }
    guard let sentence else { return nil }
    let greeting = language == .it ? "Ciao \(name), " : "Hi \(name), "
    let subject = (language == .it ? "Il tuo ordine " : "Your order ") + short
    return Message(sms: greeting + sentence, subject: subject, body: greeting + sentence + "\n")
}

func fail(_ message: String, _ code: Int32) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(code)
}

var outbox = ProcessInfo.processInfo.environment["PIZZERIA_NOTIFY_OUTBOX"] ?? "outbox"
var forced: Language?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--outbox":
        guard let value = arguments.popFirst() else { fail("--outbox needs a directory", 64) }
        outbox = value
    case "--lang":
        guard let value = arguments.popFirst(), let language = Language(rawValue: value) else {
            fail("--lang must be it or en", 64)
        }
        forced = language
    default: fail("unknown argument '\(argument)' (usage: pizzeria-notifier [--outbox DIR] [--lang it|en])", 64)
    }
}

let input = FileHandle.standardInput.readDataToEndOfFile()
let note: Notification
do {
    note = try JSONDecoder().decode(Notification.self, from: input)
} catch {
    fail("stdin is not a notification from `pizzeria notify run`: \(error)", 65)
}
guard note.token.allSatisfy({ $0.isNumber || $0.isLetter || $0 == "." }) else {
    fail("token '\(note.token)' is not an event cursor", 65)
}
guard let phone = note.event.order.customerPhone else {
    print("\(note.token): \(note.kind): no phone on the order, nothing to send")
    exit(0)
}
let language = forced ?? (phone.hasPrefix("+39") ? .it : .en)
guard let message = render(note, in: language) else {
    print("\(note.token): \(note.kind): no template, nothing to send")
    exit(0)
}
let directory = URL(fileURLWithPath: outbox, isDirectory: true)
let sms = directory.appendingPathComponent("\(note.token).sms.txt")
if FileManager.default.fileExists(atPath: sms.path) {
    print("\(note.token): already sent (a redelivery), nothing sent again")
    exit(0)
}
do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let email = "Subject: \(message.subject)\n\n\(message.body)"
    // The e-mail first, the SMS last: the SMS file's presence says the event was handled whole.
    for (url, text) in [
        (directory.appendingPathComponent("\(note.token).email.txt"), email), (sms, "\(phone)\n\(message.sms)\n"),
    ] {
        let partial = directory.appendingPathComponent(".\(url.lastPathComponent).partial")
        try Data(text.utf8).write(to: partial)
        guard rename(partial.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
} catch {
    fail("cannot write to the outbox \(outbox): \(error.localizedDescription)", 74)
}
print("\(note.token): \(note.kind) sent to \(phone) in \(language.rawValue)")
