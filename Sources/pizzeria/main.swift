import Foundation
import PizzeriaCLI

// Line-buffer nothing: each write goes straight out, so prompts appear before input is read.
exit(PizzeriaCLI.run(arguments: Array(CommandLine.arguments.dropFirst())))
