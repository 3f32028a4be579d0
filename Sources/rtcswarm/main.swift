#if canImport(Glibc)
import Glibc
#endif
import RtcswarmCLI

exit(Rtcswarm.main(Array(CommandLine.arguments.dropFirst())).rawValue)
