# Hold a TCP port on 127.0.0.1 for a while: "listen" (a server is there) or
# "bind" (taken, yet nobody answers). Prints the port number.
#   python3 tests/target/hold-port.py listen|bind SECONDS
import socket, sys, time
s = socket.socket()
s.bind(('127.0.0.1', 0))
if sys.argv[1] == 'listen':
    s.listen(1)
print(s.getsockname()[1], flush=True)
time.sleep(float(sys.argv[2]))
