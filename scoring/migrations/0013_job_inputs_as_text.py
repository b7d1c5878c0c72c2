"""An import job's documents kept as JSON text instead of jsonb: they are written once, read
back whole by the job's batches and never searched, and jsonb made PostgreSQL parse each one on
the way in and write it out again on the way back. The documents waiting keep their values:
PostgreSQL writes each out as JSON text (``USING document::text``), SQLite already held text.
The model's field (``JSONText``) reads and writes the values; to migrations it is a TextField."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0012_rating_history_room_to_update"),
    ]

    operations = [
        migrations.AlterField(
            model_name="jobinput",
            name="document",
            field=models.TextField(),
        ),
    ]
