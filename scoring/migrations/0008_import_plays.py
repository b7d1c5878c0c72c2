from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_clubs"),
    ]

    operations = [
        migrations.AddField(
            model_name="jobitem",
            name="outcome",
            field=models.CharField(blank=True, max_length=16),
        ),
        migrations.AlterField(
            model_name="job",
            name="status",
            field=models.CharField(
                choices=[
                    ("planned", "Planned"),
                    ("running", "Running"),
                    ("done", "Done"),
                    ("failed", "Failed"),
                ],
                default="running",
                max_length=16,
            ),
        ),
    ]
