"""Signs S3 requests with Debian's python3-botocore at a fixed time, for comparison with Sluice's
own SigV4 signer (tests/unit/sigv4_test.cpp). Reads "METHOD URL TOKEN" lines (TOKEN "-" for
none) and prints, per line, the payload hash header and the Authorization header, tab-separated.
"""
import datetime
import sys

import botocore.auth
import botocore.credentials
from botocore.awsrequest import AWSRequest


class FixedTime(datetime.datetime):
    @classmethod
    def utcnow(cls):
        return cls(2026, 11, 30, 12, 0, 0)


botocore.auth.datetime.datetime = FixedTime

for line in sys.stdin:
    method, url, token = line.rstrip("\n").split(" ")
    credentials = botocore.credentials.Credentials(
        "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", None if token == "-" else token)
    request = AWSRequest(method=method, url=url, headers={})
    botocore.auth.S3SigV4Auth(credentials, "s3", "us-east-1").add_auth(request)
    print(request.headers["X-Amz-Content-SHA256"] + "\t" + request.headers["Authorization"])
